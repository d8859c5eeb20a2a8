// A pool whose every connection is busy is slowness, not an outage (issue 14 §3): requests wait
// for their turn (in memory, in order) for a bounded time, then get 503 "busy" with Retry-After;
// readiness keeps answering 200 from a connection of its own. Connections are held busy here by
// checking them out of the service's own pool, so no timing of a real load is needed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type pg from 'pg';
import { buildApp } from '../../src/app.ts';
import { createOrm, type Orm } from '../../src/db/orm.ts';
import { loadConfig } from '../../src/config.ts';
import { createServices } from '../../src/trpc/context.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { freshEachTest } from '../support/suite.ts';
import { taskWorld } from '../support/task-world.ts';

const test = suite('operations: a busy database pool');
let env: TestEnv;
let people: People;
let orms: Orm[] = [];
let services: TestEnv[] = [];

freshEachTest(test, (world) => ({ env, people } = world));

test.after.each(async () => {
  for (const s of services) await s.app.close();
  for (const orm of orms) await orm.close();
  orms = [];
  services = [];
});

/** A service of its own with a pool of `poolSize` and the given bound on waiting, no session cache. */
async function serviceWith(poolSize: number, queueTimeoutSeconds: number): Promise<{ service: TestEnv; pool: pg.Pool }> {
  const config = {
    ...loadConfig({ DATA_DIR: env.config.dataDir, DATABASE_POOL_SIZE: String(poolSize), DATABASE_QUEUE_TIMEOUT_SECONDS: String(queueTimeoutSeconds) }),
    storageRoot: env.config.storageRoot,
    sessionCacheSeconds: 0,
  };
  const { queueTimeoutMs, connectTimeoutMs } = config.database;
  const orm = await createOrm(env.databaseUrl, { poolMax: poolSize, queueTimeoutMs, connectTimeoutMs });
  orms.push(orm);
  const s = createServices(orm, config, env.clock, env.services.logger);
  const service = { ...env, orm, config, services: s, app: await buildApp(s) };
  services.push(service);
  return { service, pool: (await orm.em.getConnection().getNativeClient()) as unknown as pg.Pool };
}

/** Checks out every connection of the pool, as long requests would hold them; returns the release. */
async function holdAll(pool: pg.Pool, size: number): Promise<() => void> {
  const clients = await Promise.all(Array.from({ length: size }, () => pool.connect()));
  return () => {
    for (const c of clients) c.release();
  };
}

test('a request waits for a busy pool past the old 5 s connection timeout, and is answered once a connection frees', async () => {
  const w = await taskWorld(env, people);
  const { service, pool } = await serviceWith(2, 60);
  const release = await holdAll(pool, 2);
  const answer = api(service, 'GET', `/api/units/${w.unit}/tasks/inbox`, { as: people.convenor.creds });
  await new Promise((r) => setTimeout(r, 6_000));
  release();
  const res = await answer;
  assert.is(res.status, 200, res.text);
});

test('past DATABASE_QUEUE_TIMEOUT_SECONDS a waiting request gets 503 "busy" with Retry-After, not "database not available"', async () => {
  const { service, pool } = await serviceWith(1, 1);
  const release = await holdAll(pool, 1);
  try {
    const res = await api(service, 'GET', '/api/unit_roles', { as: people.tutor.creds });
    assert.is(res.status, 503);
    assert.equal(res.body, { error: 'The service is busy; please try again shortly.' });
    assert.ok(Number(res.headers['retry-after']) > 0, 'Retry-After');
    // Requests queued behind a busy pool get the same answer, and none a 500.
    const many = await Promise.all(Array.from({ length: 5 }, () => api(service, 'GET', '/api/campuses')));
    assert.equal([...new Set(many.map((r) => r.status))], [503]);
  } finally {
    release();
  }
  assert.is((await api(service, 'GET', '/api/campuses')).status, 200, 'served again once the pool is free');
});

test('/api/ready stays 200 while every connection of the pool is busy', async () => {
  const { service, pool } = await serviceWith(2, 60);
  const release = await holdAll(pool, 2);
  try {
    const ready = await api(service, 'GET', '/api/ready');
    assert.is(ready.status, 200, ready.text);
  } finally {
    release();
  }
});

test.run();
