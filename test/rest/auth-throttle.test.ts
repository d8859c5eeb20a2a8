import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { FastifyInstance } from 'fastify';
import { SignInThrottle } from '../../schema/index.ts';
import { buildApp } from '../../src/app.ts';
import { createOrm } from '../../src/db/orm.ts';
import { createServices } from '../../src/trpc/context.ts';
import { resetDatabase, testEnv, type TestEnv } from '../support/env.ts';
import { createUser, PASSWORD } from '../support/fixtures.ts';

const test = suite('REST /api/auth throttling');
let env: TestEnv;
let saved: TestEnv['config']['signInThrottle'];

test.before.each(async () => {
  env = await testEnv();
  await resetDatabase(env);
  // The config object is shared by the whole run: put the limits back after each test.
  saved = env.config.signInThrottle;
});
test.after.each(() => {
  env.config.signInThrottle = saved;
});

/** POST /api/auth from a client address (what `request.ip` is for this request). */
async function signIn(body: Record<string, unknown>, options: { from?: string; app?: FastifyInstance } = {}) {
  const res = await (options.app ?? env.app).inject({
    method: 'POST',
    url: '/api/auth',
    payload: body,
    remoteAddress: options.from ?? '192.0.2.10',
  });
  return { status: res.statusCode, body: JSON.parse(res.body), retryAfter: res.headers['retry-after'] };
}

const rows = async () =>
  Object.fromEntries((await env.orm.em.fork().find(SignInThrottle, {}, { orderBy: { key: 'asc' } })).map((r) => [r.key, r.failures]));

test('ten wrong passwords, then 429 with Retry-After even for the right one, until the window ends', async () => {
  await createUser(env, 'astudent', 'Student');
  for (let i = 1; i <= 10; i++) {
    const wrong = await signIn({ username: 'astudent', password: `wrong${i}` });
    assert.is(wrong.status, 401, `attempt ${i}`);
  }
  assert.equal(await rows(), { 'address:192.0.2.10': 10, 'username:astudent': 10 });

  const refused = await signIn({ username: 'AStudent', password: PASSWORD });
  assert.is(refused.status, 429);
  assert.equal(refused.body, { error: 'Too many failed sign-in attempts. Try again in 15 minutes.' });
  assert.is(refused.retryAfter, '900');

  env.clock.advance(899_000);
  const stillRefused = await signIn({ username: 'astudent', password: PASSWORD });
  assert.is(stillRefused.status, 429);
  assert.is(stillRefused.retryAfter, '1');

  env.clock.advance(1_000);
  const ok = await signIn({ username: 'astudent', password: PASSWORD });
  assert.is(ok.status, 201);
  assert.type(ok.body.auth_token, 'string');
  // The new window counts from zero: the success gave its own attempt back.
  assert.equal(await rows(), { 'address:192.0.2.10': 0, 'username:astudent': 0 });
});

test('successful sign-ins do not count; only failures do', async () => {
  await createUser(env, 'astudent', 'Student');
  for (let i = 0; i < 9; i++) assert.is((await signIn({ username: 'astudent', password: 'wrong' })).status, 401);
  for (let i = 0; i < 3; i++) assert.is((await signIn({ username: 'astudent', password: PASSWORD })).status, 201);
  assert.is((await signIn({ username: 'astudent', password: 'wrong' })).status, 401); // the tenth failure
  assert.is((await signIn({ username: 'astudent', password: PASSWORD })).status, 429);
});

test('failures from one address are limited across usernames; another address is unaffected', async () => {
  env.config.signInThrottle = { ...saved, maxFailuresPerAddress: 5 };
  await createUser(env, 'astudent', 'Student');
  for (let i = 0; i < 5; i++) assert.is((await signIn({ username: `guess${i}`, password: 'wrong' }, { from: '198.51.100.7' })).status, 401);
  const refused = await signIn({ username: 'astudent', password: PASSWORD }, { from: '198.51.100.7' });
  assert.is(refused.status, 429);
  assert.is(refused.retryAfter, '900');
  assert.is((await signIn({ username: 'astudent', password: PASSWORD }, { from: '203.0.113.9' })).status, 201);
});

test('a failed token exchange counts, and a valid token is refused while throttled', async () => {
  await createUser(env, 'astudent', 'Student');
  const first = await signIn({ username: 'astudent', password: PASSWORD });
  for (let i = 0; i < 10; i++) assert.is((await signIn({ username: 'astudent', auth_token: `forged${i}` })).status, 401);
  const refused = await signIn({ username: 'astudent', auth_token: first.body.auth_token });
  assert.is(refused.status, 429);
  assert.ok(Number(refused.retryAfter) > 0);
});

test('the counts live in the database: a second API process counts against the same rows', async () => {
  const orm = await createOrm(env.databaseUrl, { poolMax: 2 });
  const other = await buildApp(createServices(orm, env.config, env.clock));
  try {
    await createUser(env, 'astudent', 'Student');
    for (let i = 0; i < 5; i++) assert.is((await signIn({ username: 'astudent', password: 'wrong' })).status, 401);
    for (let i = 0; i < 5; i++) assert.is((await signIn({ username: 'astudent', password: 'wrong' }, { app: other })).status, 401);
    assert.equal(await rows(), { 'address:192.0.2.10': 10, 'username:astudent': 10 });
    assert.is((await signIn({ username: 'astudent', password: PASSWORD }, { app: other })).status, 429);
    assert.is((await signIn({ username: 'astudent', password: PASSWORD })).status, 429);
  } finally {
    await other.close();
    await orm.close();
  }
});

test('parallel guesses cannot slip past the limit', async () => {
  await createUser(env, 'astudent', 'Student');
  const answers = await Promise.all(Array.from({ length: 30 }, () => signIn({ username: 'astudent', password: 'wrong' })));
  const statuses = answers.map((a) => a.status);
  assert.is(statuses.filter((s) => s === 401).length, 10);
  assert.is(statuses.filter((s) => s === 429).length, 20);
});

test('a limit of 0 turns that limit off', async () => {
  env.config.signInThrottle = { ...saved, maxFailuresPerUser: 0, maxFailuresPerAddress: 0 };
  await createUser(env, 'astudent', 'Student');
  for (let i = 0; i < 12; i++) assert.is((await signIn({ username: 'astudent', password: 'wrong' })).status, 401);
  assert.is((await signIn({ username: 'astudent', password: PASSWORD })).status, 201);
  assert.equal(await rows(), {});
});

test('an over-long username is a 400, not a throttle row', async () => {
  const res = await signIn({ username: 'x'.repeat(256), password: 'wrong' });
  assert.is(res.status, 400);
  assert.equal(res.body, { error: 'username is too long (maximum is 255 characters)' });
  assert.equal(await rows(), {});
});

test.run();
