// Worker reliability with real service processes (issue 9 §6): a worker killed (kill -9) in the
// middle of a PDF job loses nothing and the PDF is made once when the next one starts; two
// worker processes on one database never run the same job. Every claim of a job is recorded by a
// trigger on graphile-worker's table, so "once" is counted, not assumed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PDFDocument } from 'pdf-lib';
import type { UploadRequirement } from '../../schema/units.ts';
import { createOrm, type Orm } from '../../src/db/orm.ts';
import { storageKeys } from '../../src/storage/index.ts';
import type { TestEnv } from '../support/env.ts';
import { api } from '../support/http.ts';
import { launchServer, startServer, type ServerProcess } from '../support/server-process.ts';
import { freshEachTest } from '../support/suite.ts';
import { taskWorld } from '../support/task-world.ts';
import { seedTaskDefinition } from '../support/seed-enrolments.ts';
import { everyone, type People } from '../support/fixtures.ts';
import { dropClaims, recordClaims } from '../support/job-claims.ts';
import { bigProgram } from '../support/sample-files.ts';

const test = suite('worker: PDF jobs survive a killed worker and are never run twice');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));
let running: ServerProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];

test.after.each(async () => {
  for (const server of running) {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await server.exited;
  }
  running = [];
  while (cleanups.length) await cleanups.pop()!();
});

const CODE: UploadRequirement[] = [{ key: 'file0', name: 'Program', type: 'code' }];

/**
 * Waits for `check`; `ms` is what an idle machine needs with room to spare. The wait only catches a
 * hang, so it is four times that: starting service processes while the rest of the suite (type
 * checks, the client package's build) holds both cores took longer than 30 s.
 */
async function eventually(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const limit = ms * 4;
  for (const until = Date.now() + limit; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) if (await check()) return;
  assert.unreachable(`${what}: not within ${limit} ms`);
}

/** The embedded database of a service running on `dataDir`, reached as its superuser. */
function embeddedUrl(dataDir: string): string {
  const port = readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8')
    .split('\n')[3]
    .trim();
  const password = readFileSync(join(dataDir, 'pg.password'), 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/course_service`;
}

test('a worker killed in the middle of a PDF job: the next start builds the PDF, once, and nothing is lost', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'course-pdf-kill-'));
  chmodSync(dataDir, 0o755);
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const first = await startServer(dataDir, { WORKER_CONCURRENCY: '1', SHUTDOWN_GRACE_SECONDS: '2' });
  running.push(first);

  // The world is written straight into the service's own database, as in the in-process tests.
  const url = embeddedUrl(dataDir);
  const orm: Orm = await createOrm(url);
  cleanups.push(() => orm.close());
  const client = new pg.Client(url);
  await client.connect();
  cleanups.push(() => client.end());
  await recordClaims(client);
  const there = { orm, clock: { now: () => new Date() } } as unknown as TestEnv;
  const thePeople = await everyone(there);
  const w = await taskWorld(there, thePeople, { uploadRequirements: CODE });

  const form = new FormData();
  form.append('file0', new Blob([bigProgram()], { type: 'text/x-python' }), 'big.py');
  const res = await fetch(`${first.baseUrl}/api/projects/${w.project}/task_def_id/${w.td}/submission`, {
    method: 'POST',
    headers: { Username: thePeople.student.creds.username, 'Auth-Token': thePeople.student.creds.token },
    body: form,
  });
  assert.is(res.status, 201, await res.text());
  const {
    rows: [entry],
  } = await client.query('select id from task_submissions');

  // In the middle of the job: taken by the worker, not finished.
  await eventually(async () => (await client.query('select count(*)::int as n from public.test_job_claims')).rows[0].n > 0, 60_000, 'the worker takes the job');
  await new Promise((r) => setTimeout(r, 500));
  const mid = await client.query('select processing from task_submissions where id = $1', [entry.id]);
  assert.is(mid.rows[0].processing, true, 'killed before the PDF was recorded');
  first.child.kill('SIGKILL');
  await first.exited;
  await client.end().catch(() => {});
  cleanups.pop();

  const second = await startServer(dataDir, { WORKER_CONCURRENCY: '1' });
  running.push(second);
  assert.match(second.output(), 'released 1 job(s) left locked by an earlier run');
  const again = new pg.Client(embeddedUrl(dataDir));
  await again.connect();
  cleanups.push(() => again.end());
  await eventually(
    async () => (await again.query('select processing from task_submissions where id = $1', [entry.id])).rows[0].processing === false,
    30_000,
    'the PDF is built after the restart',
  );
  await eventually(
    async () => (await again.query('select count(*)::int as n from graphile_worker._private_jobs')).rows[0].n === 0,
    30_000,
    'the job is complete',
  );

  const claims = (await again.query('select job_id, locked_by from public.test_job_claims order by at')).rows;
  assert.is(claims.length, 2, `taken by the killed worker, then once by the next: ${JSON.stringify(claims)}`);
  assert.is(claims[0].job_id, claims[1].job_id);
  assert.is.not(claims[0].locked_by, claims[1].locked_by);
  const tasks = (await again.query('select pdf_path from tasks')).rows;
  assert.equal(tasks, [{ pdf_path: storageKeys.submissionPdf(entry.id) }]);
  const pdfFile = join(dataDir, 'files', storageKeys.submissionPdf(entry.id));
  assert.ok(existsSync(pdfFile));
  const doc = await PDFDocument.load(readFileSync(pdfFile));
  assert.ok(doc.getPageCount() > 80, `every page is there (${doc.getPageCount()})`);
  const [{ status }] = (await again.query('select status from tasks')).rows;
  assert.ok(['ready_for_feedback', 'time_exceeded'].includes(status), `the upload itself is kept (${status})`);
  await dropClaims(again);
  while (cleanups.length > 1) await cleanups.pop()!(); // clients and pools first, the data directory last
  second.child.kill('SIGTERM');
  assert.is(await second.exited, 0, 'the database stops with the service');
});

test('two worker processes on one database take every PDF job exactly once between them', async () => {
  const client = new pg.Client(env.databaseUrl);
  await client.connect();
  cleanups.push(async () => {
    await dropClaims(client);
    await client.end();
  });
  await recordClaims(client);
  await client.query('truncate public.test_job_claims');

  const workerEnv = {
    SERVICE_ROLE: 'worker',
    DATABASE_URL: env.databaseUrl,
    STORAGE_ROOT: env.config.storageRoot,
    WORKER_CONCURRENCY: '1',
    SHUTDOWN_GRACE_SECONDS: '2',
  };
  const workers = await Promise.all([
    launchServer(mkdtempSync(join(tmpdir(), 'course-w1-')), workerEnv),
    launchServer(mkdtempSync(join(tmpdir(), 'course-w2-')), workerEnv),
  ]);
  running.push(...workers);
  await eventually(async () => workers.every((w) => w.output().includes('job worker running')), 30_000, 'both workers start');

  const w = await taskWorld(env, people, { uploadRequirements: CODE });
  const definitions = [w.td];
  for (let i = 2; i <= 8; i++) definitions.push(await seedTaskDefinition(env, w.unit, `P${i}`, { uploadRequirements: CODE }));
  for (const td of definitions) {
    const res = await api(env, 'POST', `/api/projects/${w.project}/task_def_id/${td}/submission`, {
      as: people.student.creds,
      multipart: { file0: { filename: 'main.py', contentType: 'text/x-python', data: Buffer.from(`print(${td})\n`.repeat(400)) } },
    });
    assert.is(res.status, 201, res.text);
  }
  await eventually(
    async () => (await client.query('select count(*)::int as n from task_submissions where processing')).rows[0].n === 0,
    40_000,
    'every PDF is built',
  );
  await eventually(
    async () => (await client.query('select count(*)::int as n from graphile_worker._private_jobs')).rows[0].n === 0,
    30_000,
    'every job is complete',
  );

  const claims = (await client.query("select job_id, locked_by from public.test_job_claims where task = 'accept_submission'")).rows;
  assert.is(claims.length, 8, `eight jobs, eight claims: ${JSON.stringify(claims)}`);
  assert.is(new Set(claims.map((c) => c.job_id)).size, 8, 'no job taken twice');
  const paths = (await client.query('select pdf_path from tasks where pdf_path is not null')).rows;
  assert.is(paths.length, 8);
  for (const { pdf_path } of paths) assert.ok(existsSync(join(env.config.storageRoot, pdf_path)), pdf_path);
  for (const worker of workers) worker.child.kill('SIGTERM');
  for (const worker of workers) assert.is(await worker.exited, 0);
});

test.run();
