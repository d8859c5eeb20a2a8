// Several replicas starting at once on an empty database (`docker compose up` with `replicas: 2`,
// a Kubernetes Deployment's first rollout): each one migrates the schema and creates the first
// Admin on start-up. They must end with one schema and one Admin, and every one of them must start.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createOrm } from '../../src/db/orm.ts';
import { ensureAdmin } from '../../src/operations/users/ensure-admin.ts';

const REPLICAS = 4;
const test = suite('operations: replicas starting at once on an empty database');
let dir: string;
let db: EmbeddedDatabase;

test.before.each(async () => {
  dir = mkdtempSync(join(tmpdir(), 'course-concurrent-start-'));
  chmodSync(dir, 0o755); // as root, PostgreSQL's own user must reach its data
  db = await startEmbeddedPostgres(join(dir, 'pg'), { persistent: false, log: () => {} });
});

test.after.each(async () => {
  await db.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function query<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

test('each replica migrates: all succeed, every migration is applied once, by exactly one of them', async () => {
  const results = await Promise.allSettled(Array.from({ length: REPLICAS }, () => migrate(db.url)));
  const failures = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
  assert.equal(failures, [], 'no replica fails to migrate');
  const applied = results.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
  const recorded = await query<{ name: string }>('select name from mikro_orm_migrations order by id');
  assert.ok(recorded.length > 0);
  assert.equal([...applied].sort(), recorded.map((r) => r.name).sort(), 'each migration is applied by one replica only');
  const [jobs] = await query<{ n: number }>('select count(*)::int as n from graphile_worker.migrations');
  assert.ok(jobs.n > 0, "graphile-worker's tables are there too");
});

test('each replica makes sure of the first Admin: one Admin, created once, and every replica starts', async () => {
  await migrate(db.url);
  const config = loadConfig({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'first-start-password' });
  const orms = await Promise.all(Array.from({ length: REPLICAS }, () => createOrm(db.url, { poolMax: 2 })));
  try {
    const results = await Promise.allSettled(orms.map((orm) => ensureAdmin(orm, config)));
    const failures = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
    assert.equal(failures, [], 'no replica fails to start');
    const created = results.filter((r) => r.status === 'fulfilled' && r.value.created);
    assert.is(created.length, 1, 'one replica created the Admin, the others found it');
  } finally {
    await Promise.all(orms.map((orm) => orm.close()));
  }
  const users = await query<{ username: string }>('select username from users');
  assert.equal(users, [{ username: 'root' }]);
});

test.run();
