import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { FastifyInstance } from 'fastify';
import { SignInFailure } from '../../schema/index.ts';
import { buildApp } from '../../src/app.ts';
import { createOrm } from '../../src/db/orm.ts';
import { createServices } from '../../src/trpc/context.ts';
import { resetDatabase, testEnv, type TestEnv } from '../support/env.ts';
import { createUser, PASSWORD } from '../support/fixtures.ts';
import { tcpCut } from '../support/tcp-cut.ts';

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

const HOME = '192.0.2.10';
const ELSEWHERE = '203.0.113.9';

/** POST /api/auth from a client address (what `request.ip` is for this request). */
async function signIn(body: Record<string, unknown>, options: { from?: string; app?: FastifyInstance; headers?: Record<string, string> } = {}) {
  const res = await (options.app ?? env.app).inject({
    method: 'POST',
    url: '/api/auth',
    payload: body,
    headers: options.headers,
    remoteAddress: options.from ?? HOME,
  });
  return { status: res.statusCode, body: JSON.parse(res.body), retryAfter: res.headers['retry-after'] };
}

const wrongTimes = async (n: number, username: string, from = HOME) => {
  for (let i = 1; i <= n; i++) assert.is((await signIn({ username, password: `wrong${i}` }, { from })).status, 401, `wrong password ${i}`);
};

/** The failures counted, by key. */
const counts = async () => Object.fromEntries((await env.orm.em.fork().find(SignInFailure, {}, { orderBy: { key: 'asc' } })).map((r) => [r.key, r.points]));

const tally = (statuses: number[]) => {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
};

test('the 11th wrong password for one user from one address gets 429 with Retry-After, even with the right password', async () => {
  await createUser(env, 'astudent', 'Student');
  await wrongTimes(10, 'astudent');
  assert.equal(await counts(), { 'address-user:192.0.2.10/astudent': 10, 'address:192.0.2.10': 10 });

  for (const password of ['wrong11', PASSWORD]) {
    const refused = await signIn({ username: 'AStudent', password });
    assert.is(refused.status, 429);
    const seconds = Number(refused.retryAfter);
    assert.ok(seconds >= 1 && seconds <= 900, `Retry-After ${refused.retryAfter}`);
    assert.equal(refused.body, { error: `Too many failed sign-in attempts. Try again in ${Math.ceil(seconds / 60)} minutes.` });
  }
  // A refused attempt is not counted again.
  assert.equal(await counts(), { 'address-user:192.0.2.10/astudent': 10, 'address:192.0.2.10': 10 });
});

test('wrong passwords from one address do not keep the real user out at another address', async () => {
  await createUser(env, 'astudent', 'Student');
  await wrongTimes(10, 'astudent', '198.51.100.7');
  assert.is((await signIn({ username: 'astudent', password: PASSWORD }, { from: '198.51.100.7' })).status, 429);
  const home = await signIn({ username: 'astudent', password: PASSWORD }, { from: ELSEWHERE });
  assert.is(home.status, 201);
  assert.type(home.body.auth_token, 'string');
});

test('once the window has ended, the address may sign in again and counts from zero', async () => {
  await createUser(env, 'astudent', 'Student');
  await wrongTimes(10, 'astudent');
  assert.is((await signIn({ username: 'astudent', password: PASSWORD })).status, 429);
  // The library keeps time with Date.now(): end the window by moving its end, not the service's clock.
  await env.orm.em.fork().nativeUpdate(SignInFailure, {}, { expire: Date.now() - 1 });
  assert.is((await signIn({ username: 'astudent', password: PASSWORD })).status, 201);
  await wrongTimes(1, 'astudent');
  assert.equal(await counts(), { 'address-user:192.0.2.10/astudent': 1, 'address:192.0.2.10': 1 });
});

test('correct sign-ins are never counted; only failures are', async () => {
  await createUser(env, 'astudent', 'Student');
  await wrongTimes(9, 'astudent');
  for (let i = 0; i < 3; i++) assert.is((await signIn({ username: 'astudent', password: PASSWORD })).status, 201);
  assert.equal(await counts(), { 'address-user:192.0.2.10/astudent': 9, 'address:192.0.2.10': 9 });
  await wrongTimes(1, 'astudent'); // the tenth failure
  assert.is((await signIn({ username: 'astudent', password: PASSWORD })).status, 429);
});

test('20 parallel correct sign-ins of one user all succeed and count nothing', async () => {
  await createUser(env, 'astudent', 'Student');
  const answers = await Promise.all(Array.from({ length: 20 }, () => signIn({ username: 'astudent', password: PASSWORD })));
  assert.equal(tally(answers.map((a) => a.status)), { 201: 20 });
  assert.equal(await counts(), {});
});

test('150 different users signing in correctly at once from one address (a campus NAT) all succeed', async () => {
  for (let i = 0; i < 150; i++) await createUser(env, `student${i}`, 'Student');
  const answers = await Promise.all(Array.from({ length: 150 }, (_, i) => signIn({ username: `student${i}`, password: PASSWORD })));
  assert.equal(tally(answers.map((a) => a.status)), { 201: 150 });
  assert.equal(await counts(), {});
});

test('parallel wrong guesses cannot slip past the limit', async () => {
  await createUser(env, 'astudent', 'Student');
  const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn({ username: 'astudent', password: `wrong${i}` })));
  assert.equal(tally(answers.map((a) => a.status)), { 401: 10, 429: 20 });
  // The right password still works from elsewhere.
  assert.is((await signIn({ username: 'astudent', password: PASSWORD }, { from: ELSEWHERE })).status, 201);
});

test('failures from one address are limited across usernames; another address is unaffected', async () => {
  env.config.signInThrottle = { ...saved, maxFailuresPerAddress: 5 };
  await createUser(env, 'astudent', 'Student');
  for (let i = 0; i < 5; i++) await wrongTimes(1, `guess${i}`, '198.51.100.7');
  const refused = await signIn({ username: 'astudent', password: PASSWORD }, { from: '198.51.100.7' });
  assert.is(refused.status, 429);
  assert.ok(Number(refused.retryAfter) > 0);
  assert.is((await signIn({ username: 'astudent', password: PASSWORD }, { from: ELSEWHERE })).status, 201);
});

test('a failed token exchange counts, and a valid token is refused from that address while throttled', async () => {
  await createUser(env, 'astudent', 'Student');
  const first = await signIn({ username: 'astudent', password: PASSWORD });
  for (let i = 0; i < 10; i++) assert.is((await signIn({ username: 'astudent', auth_token: `forged${i}` })).status, 401);
  const refused = await signIn({ username: 'astudent', auth_token: first.body.auth_token });
  assert.is(refused.status, 429);
  assert.ok(Number(refused.retryAfter) > 0);
  assert.is((await signIn({ username: 'astudent', auth_token: first.body.auth_token }, { from: ELSEWHERE })).status, 201);
});

test('the counts live in the database: a second API process counts against the same rows', async () => {
  const orm = await createOrm(env.databaseUrl, { poolMax: 2 });
  const other = await buildApp(createServices(orm, env.config, env.clock, env.services.logger));
  try {
    await createUser(env, 'astudent', 'Student');
    for (let i = 0; i < 5; i++) assert.is((await signIn({ username: 'astudent', password: 'wrong' })).status, 401);
    for (let i = 0; i < 5; i++) assert.is((await signIn({ username: 'astudent', password: 'wrong' }, { app: other })).status, 401);
    assert.equal(await counts(), { 'address-user:192.0.2.10/astudent': 10, 'address:192.0.2.10': 10 });
    assert.is((await signIn({ username: 'astudent', password: PASSWORD }, { app: other })).status, 429);
    assert.is((await signIn({ username: 'astudent', password: PASSWORD })).status, 429);
    assert.is((await signIn({ username: 'astudent', password: PASSWORD }, { app: other, from: ELSEWHERE })).status, 201);
  } finally {
    await other.close();
    await orm.close();
  }
});

test('/trpc/auth.signIn is the same procedure: it counts against the same keys and answers 429 once they are used up', async () => {
  await createUser(env, 'astudent', 'Student');
  const trpc = async (username: string, password: string) =>
    (await env.app.inject({ method: 'POST', url: '/trpc/auth.signIn', payload: { username, password }, remoteAddress: HOME })).statusCode;
  assert.is(await trpc('x'.repeat(300), 'wrong'), 401);
  await wrongTimes(5, 'astudent');
  for (let i = 0; i < 5; i++) assert.is(await trpc('astudent', 'wrong'), 401);
  assert.is(await trpc('astudent', PASSWORD), 429);
  assert.is((await signIn({ username: 'astudent', password: PASSWORD })).status, 429);
});

test('a limit of 0 turns that limit off', async () => {
  env.config.signInThrottle = { ...saved, maxFailuresPerUser: 0, maxFailuresPerAddress: 0 };
  await createUser(env, 'astudent', 'Student');
  await wrongTimes(12, 'astudent');
  assert.is((await signIn({ username: 'astudent', password: PASSWORD })).status, 201);
  assert.equal(await counts(), {});
});

test('a username of any length that cannot sign in is a 401, counted under a key of bounded length', async () => {
  const long = 'x'.repeat(300);
  const res = await signIn({ username: long, password: 'wrong' });
  assert.is(res.status, 401);
  assert.equal(res.body, { error: 'Invalid email or password.' });
  const huge = await signIn({ username: 'y'.repeat(1_000_000), password: 'wrong' });
  assert.is(huge.status, 401);
  const keys = Object.keys(await counts());
  assert.is(keys.length, 3); // two pairs and the address
  for (const key of keys) assert.ok(key.length <= 100, key);
  // The hashed key still counts: the same long username is throttled like any other.
  await wrongTimes(9, long);
  assert.is((await signIn({ username: long, password: 'wrong' })).status, 429);
});

test('behind a trusted proxy, X-Forwarded-For names the address, and a forged long one stays bounded', async () => {
  const orm = await createOrm(env.databaseUrl, { poolMax: 2 });
  const proxied = await buildApp(createServices(orm, { ...env.config, trustProxy: true }, env.clock, env.services.logger));
  try {
    await createUser(env, 'astudent', 'Student');
    const via = (address: string) => ({ app: proxied, from: '10.0.0.1', headers: { 'x-forwarded-for': address } });
    for (let i = 0; i < 10; i++) assert.is((await signIn({ username: 'astudent', password: 'wrong' }, via('198.51.100.7'))).status, 401);
    assert.is((await signIn({ username: 'astudent', password: PASSWORD }, via('198.51.100.7'))).status, 429);
    assert.is((await signIn({ username: 'astudent', password: PASSWORD }, via(ELSEWHERE))).status, 201);
    assert.is((await signIn({ username: 'astudent', password: 'wrong' }, via('z'.repeat(10_000)))).status, 401);
    for (const key of Object.keys(await counts())) assert.ok(key.length <= 160, key);
  } finally {
    await proxied.close();
    await orm.close();
  }
});

test('while the database is away, sign-in answers 503 (the throttle fails closed), then recovers', async () => {
  const url = new URL(env.databaseUrl);
  const link = await tcpCut(Number(url.port));
  url.port = String(link.port);
  const orm = await createOrm(url.toString(), { poolMax: 2 });
  const app = await buildApp(createServices(orm, env.config, env.clock, env.services.logger));
  try {
    await createUser(env, 'astudent', 'Student');
    assert.is((await signIn({ username: 'astudent', password: PASSWORD }, { app })).status, 201);
    await link.cut();
    const away = await signIn({ username: 'astudent', password: PASSWORD }, { app });
    assert.is(away.status, 503);
    assert.equal(away.body, { error: 'The database is not available at the moment. Please try again shortly.' });
    await link.restore();
    let back = 0;
    for (const until = Date.now() + 30_000; Date.now() < until && back !== 201; await new Promise((r) => setTimeout(r, 100))) {
      back = (await signIn({ username: 'astudent', password: PASSWORD }, { app })).status;
    }
    assert.is(back, 201);
  } finally {
    await app.close();
    await orm.close();
    await link.close();
  }
});

test.run();
