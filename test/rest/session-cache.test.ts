import { suite } from 'uvu';
import pg from 'pg';
import * as assert from 'uvu/assert';
import { AuthToken } from '../../schema/index.ts';
import { SessionCache } from '../../src/operations/auth/session-cache.ts';
import { findSession, hashToken } from '../../src/operations/auth/session-tokens.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';

const test = suite('session cache');
let env: TestEnv;
let people: People;

freshEachTest(test, (world) => ({ env, people } = world));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a token removed by another process stops working once the cache entry is older than its time to live', async () => {
  let now = 0;
  const cache = new SessionCache(80, 50_000, () => now);
  const { username, token } = people.tutor.creds;
  assert.is((await findSession(env.orm.em.fork(), username, token, env.clock.now(), cache)).kind, 'valid');
  await env.orm.em.fork().nativeDelete(AuthToken, { tokenHash: hashToken(token) });
  now += 80;
  assert.is((await findSession(env.orm.em.fork(), username, token, env.clock.now(), cache)).kind, 'valid', 'within the bound');
  now += 1;
  assert.is((await findSession(env.orm.em.fork(), username, token, env.clock.now(), cache)).kind, 'invalid');
});

test('an entry is trusted for its time to live from the moment its read began, so a read held up does not stretch the bound', async () => {
  const cache = new SessionCache(300);
  const { username, token } = people.tutor.creds;
  // Holds the session's read back for longer than the time to live, as a busy database would.
  const locker = new pg.Client(env.databaseUrl);
  await locker.connect();
  try {
    await locker.query('begin; lock table auth_tokens in access exclusive mode');
    const lookup = findSession(env.orm.em.fork(), username, token, env.clock.now(), cache);
    await sleep(400);
    await locker.query('commit');
    assert.is((await lookup).kind, 'valid');
  } finally {
    await locker.end();
  }
  assert.is(cache.get(hashToken(token)), undefined, 'what was read 400 ms ago is not trusted for 300 ms more');
});

test('a cached token past its expiry is checked in the database, and the wrong username never matches', async () => {
  const cache = new SessionCache(60_000);
  const { username, token } = people.student.creds;
  assert.is((await findSession(env.orm.em.fork(), username, token, env.clock.now(), cache)).kind, 'valid');
  assert.is((await findSession(env.orm.em.fork(), 'atutor', token, env.clock.now(), cache)).kind, 'invalid');
  env.clock.advance(3 * 3600_000);
  assert.is((await findSession(env.orm.em.fork(), username, token, env.clock.now(), cache)).kind, 'expired');
  assert.is(await env.orm.em.fork().count(AuthToken, { tokenHash: hashToken(token) }), 0);
});

test('with a time to live of 0 nothing is cached', async () => {
  const cache = new SessionCache(0);
  const { username, token } = people.tutor.creds;
  await findSession(env.orm.em.fork(), username, token, env.clock.now(), cache);
  await env.orm.em.fork().nativeDelete(AuthToken, { tokenHash: hashToken(token) });
  assert.is((await findSession(env.orm.em.fork(), username, token, env.clock.now(), cache)).kind, 'invalid');
});

test('signing out through this process ends the token at once', async () => {
  assert.is((await api(env, 'GET', '/api/unit_roles', { as: people.tutor.creds })).status, 200);
  assert.is((await api(env, 'DELETE', '/api/auth', { as: people.tutor.creds })).status, 204);
  assert.is((await api(env, 'GET', '/api/unit_roles', { as: people.tutor.creds })).status, 419);
});

test('a role change through this process applies to the user’s very next request', async () => {
  assert.is((await api(env, 'GET', '/api/users', { as: people.convenor.creds })).status, 200);
  const demote = await api(env, 'PUT', `/api/users/${people.convenor.user.id}`, { as: people.admin.creds, json: { user: { system_role: 'Tutor' } } });
  assert.is(demote.status, 200);
  assert.is((await api(env, 'GET', '/api/users', { as: people.convenor.creds })).status, 403);
});

/**
 * Makes a request arrive at the moment the cache is told of a change: `method` of the shared
 * cache is wrapped so that, right after it runs, the session `creds` is looked up from another
 * connection, as a concurrent request would. So that the race goes the bad way every time, the
 * ORM's commit waits for such lookups: were the cache told before the commit, the lookup would
 * read the old row and cache it again. Returns the lookups, to be awaited after the change.
 */
function concurrentLookupOn(method: 'forgetUser' | 'forgetToken', creds: { username: string; token: string }) {
  const cache = env.services.sessions;
  const original = cache[method];
  const lookups: Promise<Awaited<ReturnType<typeof findSession>>>[] = [];
  cache[method] = function (this: SessionCache, arg: never) {
    original.call(this, arg);
    lookups.push(findSession(env.orm.em.fork(), creds.username, creds.token, env.clock.now(), cache));
  } as never;
  const connection = env.orm.em.getConnection();
  const commit = connection.commit;
  connection.commit = async function (this: typeof connection, ...args: Parameters<typeof commit>) {
    await Promise.all(lookups);
    return commit.apply(this, args);
  };
  return {
    lookups,
    restore: () => {
      cache[method] = original as never;
      connection.commit = commit;
    },
  };
}

test('a request arriving as a role change is forgotten cannot re-cache the old role', async () => {
  const { convenor, admin } = people;
  assert.is((await api(env, 'GET', '/api/users', { as: convenor.creds })).status, 200);
  const race = concurrentLookupOn('forgetUser', convenor.creds);
  try {
    const demote = await api(env, 'PUT', `/api/users/${convenor.user.id}`, { as: admin.creds, json: { user: { system_role: 'Tutor' } } });
    assert.is(demote.status, 200);
    const [lookup] = await Promise.all(race.lookups);
    assert.is(lookup.kind === 'valid' && lookup.user.systemRole, 'Tutor', 'the change is committed before the cache forgets');
  } finally {
    race.restore();
  }
  assert.is((await api(env, 'GET', '/api/users', { as: convenor.creds })).status, 403);
});

test('a request arriving as a sign-out is forgotten cannot re-cache the ended token', async () => {
  const { tutor } = people;
  assert.is((await api(env, 'GET', '/api/unit_roles', { as: tutor.creds })).status, 200);
  const race = concurrentLookupOn('forgetToken', tutor.creds);
  try {
    assert.is((await api(env, 'DELETE', '/api/auth', { as: tutor.creds })).status, 204);
    const [lookup] = await Promise.all(race.lookups);
    assert.is(lookup.kind, 'invalid', 'the token is deleted before the cache forgets it');
  } finally {
    race.restore();
  }
  assert.is((await api(env, 'GET', '/api/unit_roles', { as: tutor.creds })).status, 419);
});

test.run();
