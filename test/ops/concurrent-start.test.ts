// The processes of a deployment start together: `deploy.replicas: 2` of the API and of the worker,
// or a rolling upgrade that brings a migration. Each start migrates and makes sure the first Admin
// exists; on an empty database, at once, they must take turns instead of failing
// ("relation mikro_orm_migrations already exists", a duplicate Admin). docs/operating/scaling.md.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { User } from '../../schema/index.ts';
import { loadConfig } from '../../src/config.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createOrm, type Orm } from '../../src/db/orm.ts';
import { ensureAdmin } from '../../src/lib/bootstrap.ts';

const test = suite('operations: processes starting at once on an empty database');
let dir: string;
let db: EmbeddedDatabase;
const orms: Orm[] = [];

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'course-concurrent-start-'));
  chmodSync(dir, 0o755); // as root, PostgreSQL's own user must reach its data
  db = await startEmbeddedPostgres(join(dir, 'pg'), { persistent: false, log: () => {} });
});

test.after(async () => {
  for (const orm of orms) await orm.close();
  await db?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('three migrations at once: each succeeds, and the migrations are applied once', async () => {
  const results = await Promise.allSettled([migrate(db.url), migrate(db.url), migrate(db.url)]);
  const failed = results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason));
  assert.equal(failed, [], 'no start fails');
  const applied = results.map((r) => (r as PromiseFulfilledResult<string[]>).value.length).sort();
  assert.is(applied[0], 0, 'the later ones find nothing left to do');
  assert.is(applied[1], 0);
  assert.ok(applied[2] > 0, 'one applies them all');
});

test('three first starts at once: exactly one creates the Admin', async () => {
  const config = { ...loadConfig({}), adminPassword: 'first-admin-password' };
  for (let i = 0; i < 3; i++) orms.push(await createOrm(db.url, { poolMax: 2 }));
  const results = await Promise.all(orms.map((orm) => ensureAdmin(orm, config)));
  assert.equal(results.map((r) => r.created).sort(), [false, false, true]);
  assert.is(await orms[0].em.fork().count(User, {}), 1);
});

test.run();
