// Storage that is full or read-only (issue 14 §6): an upload answers 507 or 503 with an
// `{"error"}` naming the cause instead of 500, nothing is half-written (no submission recorded,
// no file left in the store), and readiness reports storage that cannot be written. Real file
// systems: a 1 MB tmpfs filled up, and a read-only bind mount (root only; skipped otherwise).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/app.ts';
import { db } from '../../src/db/kysely.ts';
import { createServices } from '../../src/trpc/context.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { samplePdf } from '../support/sample-files.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { seedTaskDefinition } from '../support/seed-enrolments.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('operations: full or read-only storage');
let env: TestEnv;
let people: People;
let mounts: string[] = [];
let service: TestEnv | undefined;

freshEachTest(test, (world) => ({ env, people } = world));

test.after.each(async () => {
  await service?.app.close();
  service = undefined;
  for (const dir of mounts.reverse()) execFileSync('umount', [dir]);
  for (const dir of mounts) rmSync(dir, { recursive: true, force: true });
  mounts = [];
});

const asRoot = process.getuid?.() === 0 && process.platform === 'linux';

function mounted(args: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'course-storage-'));
  execFileSync('mount', [...args, dir]);
  mounts.push(dir);
  return dir;
}

/** A service of its own whose stored files live under `storageRoot`. */
async function serviceOn(storageRoot: string): Promise<TestEnv> {
  const config = { ...env.config, storageRoot };
  const services = createServices(env.orm, config, env.clock, env.services.logger);
  service = { ...env, config, services, app: await buildApp(services) };
  return service;
}

async function uploadWorld() {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  const project = await enrol(env, people.student.user, unit);
  const td = await seedTaskDefinition(env, unit, 'P1', { uploadRequirements: [{ key: 'file0', name: 'Report', type: 'document' }] });
  return { project, td };
}

const upload = (s: TestEnv, project: number, td: number) =>
  api(s, 'POST', `/api/projects/${project}/task_def_id/${td}/submission`, {
    as: people.student.creds,
    multipart: { file0: { filename: 'report.pdf', contentType: 'application/pdf', data: samplePdf('My report '.repeat(2_000)) } },
  });

const submissions = () => db(env.orm.em.fork()).selectFrom('task_submissions').select('id').execute();

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(dir, join(prefix, e.name)) : [join(prefix, e.name)],
  );
}

test('full storage: the upload answers 507 naming it, nothing is written, readiness says storage cannot be written', async () => {
  if (!asRoot) return;
  const { project, td } = await uploadWorld();
  const root = mounted(['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs']);
  // Fill the file system up to its last block.
  try {
    writeFileSync(join(root, 'filler'), Buffer.alloc(2 * 1024 * 1024));
  } catch {
    // ENOSPC: full, as intended
  }
  const s = await serviceOn(root);
  const res = await upload(s, project, td);
  assert.is(res.status, 507, res.text);
  assert.match(res.body.error, 'Storage is full');
  assert.equal(await submissions(), [], 'no submission recorded');
  assert.equal(filesUnder(root), ['filler'], 'nothing half-written in the store');
  const ready = await api(s, 'GET', '/api/ready');
  assert.is(ready.status, 503);
  assert.match(ready.body.error, /storage .* cannot be written: ENOSPC/);
});

test('read-only storage: the upload answers 503 naming it, nothing is written, readiness says so', async () => {
  if (!asRoot) return;
  const { project, td } = await uploadWorld();
  const source = mkdtempSync(join(tmpdir(), 'course-storage-src-'));
  mkdirSync(join(source, 'submissions'));
  const root = mounted(['--bind', source]);
  execFileSync('mount', ['-o', 'remount,bind,ro', root]);
  const s = await serviceOn(root);
  try {
    const res = await upload(s, project, td);
    assert.is(res.status, 503, res.text);
    assert.match(res.body.error, 'read-only file system');
    assert.ok(Number(res.headers['retry-after']) > 0);
    assert.equal(await submissions(), []);
    assert.equal(filesUnder(source), []);
    const ready = await api(s, 'GET', '/api/ready');
    assert.is(ready.status, 503);
    assert.match(ready.body.error, /storage .* cannot be written: EROFS/);
  } finally {
    rmSync(source, { recursive: true, force: true });
  }
});

test.run();
