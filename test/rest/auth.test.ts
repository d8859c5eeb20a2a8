import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AuthToken, User } from '../../schema/index.ts';
import { hashToken } from '../../src/operations/auth/session-tokens.ts';
import { resetDatabase, testEnv } from '../support/env.ts';
import { createUser, PASSWORD } from '../support/fixtures.ts';
import { api } from '../support/http.ts';

const test = suite('REST /api/auth');
let env: Awaited<ReturnType<typeof testEnv>>;
const HOUR = 3600_000;

test.before.each(async () => {
  env = await testEnv();
  await resetDatabase(env);
});

const tokens = () => env.orm.em.fork().find(AuthToken, {}, { orderBy: { id: 'asc' } });

test('signing in returns the user and a token that works and is stored only as a hash', async () => {
  await createUser(env, 'astudent', 'Student');
  const res = await api(env, 'POST', '/api/auth', { json: { username: 'AStudent', password: PASSWORD, remember: true } });
  assert.is(res.status, 201);
  assert.equal(Object.keys(res.body).sort(), ['auth_token', 'user']);
  assert.is(res.body.user.username, 'astudent');
  assert.is(res.body.user.system_role, 'Student');
  assert.is(res.body.user.has_run_first_time_setup, true);
  const [stored] = await tokens();
  assert.is(stored.tokenHash, hashToken(res.body.auth_token));
  assert.not.ok(JSON.stringify(stored).includes(res.body.auth_token));
  const campuses = await api(env, 'PUT', '/api/auth', { as: { username: 'astudent', token: res.body.auth_token }, json: { username: 'astudent' } });
  assert.is(campuses.status, 201);
});

test('a form body signs in too', async () => {
  await createUser(env, 'atutor', 'Tutor');
  const res = await api(env, 'POST', '/api/auth', { form: { username: 'atutor', password: PASSWORD } });
  assert.is(res.status, 201);
  assert.type(res.body.auth_token, 'string');
});

test('a wrong password or an unknown user gets 401 and creates nothing', async () => {
  await createUser(env, 'astudent', 'Student');
  const wrong = await api(env, 'POST', '/api/auth', { json: { username: 'astudent', password: 'nope' } });
  assert.is(wrong.status, 401);
  assert.is(wrong.body.error, 'Invalid email or password.');
  const unknown = await api(env, 'POST', '/api/auth', { json: { username: 'ghost', password: PASSWORD } });
  assert.is(unknown.status, 401);
  assert.is((await tokens()).length, 0);
  assert.is(await env.orm.em.fork().count(User, {}), 1);
});

test('missing username or password gets 400', async () => {
  assert.is((await api(env, 'POST', '/api/auth', { json: {} })).status, 400);
  const noPassword = await api(env, 'POST', '/api/auth', { json: { username: 'astudent' } });
  assert.is(noPassword.status, 400);
  assert.match(noPassword.body.error, 'password is missing');
  assert.is((await api(env, 'POST', '/api/auth', { json: { username: ['a', 'b'], password: 'x' } })).status, 400);
});

test('tokens last 2 hours, or 2 weeks for remembered students and 1 week for remembered tutors', async () => {
  const cases: [string, 'Student' | 'Tutor' | 'Convenor' | 'Admin', boolean, number][] = [
    ['s1', 'Student', false, 2 * HOUR],
    ['s2', 'Student', true, 14 * 24 * HOUR],
    ['t1', 'Tutor', true, 7 * 24 * HOUR],
    ['c1', 'Convenor', true, 2 * HOUR],
    ['a1', 'Admin', true, 2 * HOUR],
  ];
  for (const [username, role, remember, lifetime] of cases) {
    await createUser(env, username, role);
    const res = await api(env, 'POST', '/api/auth', { json: { username, password: PASSWORD, remember } });
    const stored = await env.orm.em.fork().findOneOrFail(AuthToken, { tokenHash: hashToken(res.body.auth_token) });
    assert.is(stored.expiresAt.getTime() - env.clock.now().getTime(), lifetime, `${username} ${remember}`);
  }
});

test('an expired token gets 419 and is deleted; renewing before expiry extends it', async () => {
  await createUser(env, 'astudent', 'Student');
  const res = await api(env, 'POST', '/api/auth', { json: { username: 'astudent', password: PASSWORD } });
  const creds = { username: 'astudent', token: res.body.auth_token };
  env.clock.advance(HOUR + 59 * 60_000);
  const renewed = await api(env, 'PUT', '/api/auth', { as: creds, json: { username: 'astudent', remember: false } });
  assert.is(renewed.status, 201);
  assert.equal(renewed.body, { auth_token: creds.token });
  env.clock.advance(HOUR + 59 * 60_000); // past the original expiry, inside the renewed one
  assert.is((await api(env, 'PUT', '/api/auth', { as: creds, json: { username: 'astudent' } })).status, 201);
  env.clock.advance(3 * HOUR);
  const expired = await api(env, 'PUT', '/api/auth', { as: creds, json: { username: 'astudent' } });
  assert.is(expired.status, 419);
  assert.is(expired.body.error, 'Authentication token expired.');
  assert.is((await tokens()).length, 0);
});

test('renewing needs credentials and the same username', async () => {
  await createUser(env, 'astudent', 'Student');
  const res = await api(env, 'POST', '/api/auth', { json: { username: 'astudent', password: PASSWORD } });
  const creds = { username: 'astudent', token: res.body.auth_token };
  assert.is((await api(env, 'PUT', '/api/auth', { json: { username: 'astudent' } })).status, 419);
  assert.is((await api(env, 'PUT', '/api/auth', { as: creds, json: {} })).status, 400);
  assert.is((await api(env, 'PUT', '/api/auth', { as: creds, json: { username: 'someoneelse' } })).status, 403);
});

test('signing out ends only the presented token', async () => {
  await createUser(env, 'astudent', 'Student');
  const first = await api(env, 'POST', '/api/auth', { json: { username: 'astudent', password: PASSWORD } });
  const second = await api(env, 'POST', '/api/auth', { json: { username: 'astudent', password: PASSWORD } });
  const a = { username: 'astudent', token: first.body.auth_token };
  const b = { username: 'astudent', token: second.body.auth_token };
  const out = await api(env, 'DELETE', '/api/auth', { as: a });
  assert.is(out.status, 204);
  assert.is((await api(env, 'PUT', '/api/auth', { as: a, json: { username: 'astudent' } })).status, 419);
  assert.is((await api(env, 'PUT', '/api/auth', { as: b, json: { username: 'astudent' } })).status, 201);
  assert.is((await api(env, 'DELETE', '/api/auth')).status, 419);
});

test('a held token can be exchanged for a fresh one (single sign-on return)', async () => {
  await createUser(env, 'astudent', 'Student');
  const first = await api(env, 'POST', '/api/auth', { json: { username: 'astudent', password: PASSWORD } });
  const swap = await api(env, 'POST', '/api/auth', { json: { username: 'astudent', auth_token: first.body.auth_token, remember: true } });
  assert.is(swap.status, 201);
  assert.is.not(swap.body.auth_token, first.body.auth_token);
  const bad = await api(env, 'POST', '/api/auth', { json: { username: 'astudent', auth_token: 'forged' } });
  assert.is(bad.status, 401);
});

test('exchanging a token cannot lengthen the session: the new token expires no later than the old one', async () => {
  await createUser(env, 'astudent', 'Student');
  const first = await api(env, 'POST', '/api/auth', { json: { username: 'astudent', password: PASSWORD } });
  const presented = await env.orm.em.fork().findOneOrFail(AuthToken, { tokenHash: hashToken(first.body.auth_token) });
  env.clock.advance(HOUR);
  const swap = await api(env, 'POST', '/api/auth', { json: { username: 'astudent', auth_token: first.body.auth_token, remember: true } });
  assert.is(swap.status, 201);
  const fresh = await env.orm.em.fork().findOneOrFail(AuthToken, { tokenHash: hashToken(swap.body.auth_token) });
  assert.is(fresh.expiresAt.getTime(), presented.expiresAt.getTime());
  // Exchanging again and again never gets past the first token's end.
  const again = await api(env, 'POST', '/api/auth', { json: { username: 'astudent', auth_token: swap.body.auth_token, remember: true } });
  const latest = await env.orm.em.fork().findOneOrFail(AuthToken, { tokenHash: hashToken(again.body.auth_token) });
  assert.is(latest.expiresAt.getTime(), presented.expiresAt.getTime());
  env.clock.advance(HOUR);
  const expired = await api(env, 'PUT', '/api/auth', { as: { username: 'astudent', token: again.body.auth_token }, json: { username: 'astudent' } });
  assert.is(expired.status, 419);
});

test('an exchange still gets no more than its own lifetime when the presented token lasts longer', async () => {
  await createUser(env, 'astudent', 'Student');
  const remembered = await api(env, 'POST', '/api/auth', { json: { username: 'astudent', password: PASSWORD, remember: true } });
  const swap = await api(env, 'POST', '/api/auth', { json: { username: 'astudent', auth_token: remembered.body.auth_token } });
  const fresh = await env.orm.em.fork().findOneOrFail(AuthToken, { tokenHash: hashToken(swap.body.auth_token) });
  assert.is(fresh.expiresAt.getTime() - env.clock.now().getTime(), 2 * HOUR);
});

test('sign-in method and sign-out address are public and null by default', async () => {
  const method = await api(env, 'GET', '/api/auth/method');
  assert.is(method.status, 200);
  assert.equal(method.body, { method: 'database', redirect_to: null });
  const signout = await api(env, 'GET', '/api/auth/signout_url');
  assert.equal(signout.body, { auth_signout_url: null });
});

test.run();
