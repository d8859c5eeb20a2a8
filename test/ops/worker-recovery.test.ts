// Nothing stays stuck (issue 14 §2), with real processes on one external PostgreSQL, as several
// machines would run the service: one SERVICE_ROLE=api process and two SERVICE_ROLE=worker
// processes. A worker killed with kill -9 in the middle of a PDF job, and a PostgreSQL restart in
// the middle of one: either way the PDF is built within 120 s, by a live worker, and the job is
// not run twice to completion. Which process took a job is recorded by a trigger (each worker
// connects with its own application_name).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { UploadRequirement } from '../../schema/units.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.ts';
import { createOrm, type Orm } from '../../src/db/orm.ts';
import { storageKeys } from '../../src/storage/index.ts';
import type { TestEnv } from '../support/env.ts';
import { everyone, type People } from '../support/fixtures.ts';
import { claims, recordClaims } from '../support/job-claims.ts';
import { bigProgram } from '../support/sample-files.ts';
import { launchServer, startServer, type ServerProcess } from '../support/server-process.ts';
import { taskWorld, type TaskWorld } from '../support/task-world.ts';

const test = suite('operations: a dead worker or a database restart leaves no job stuck');

const CODE: UploadRequirement[] = [{ key: 'file0', name: 'Program', type: 'code' }];
/** The promise: a job of a dead worker, or one caught by a database restart, runs again within this. */
const RECOVERY_MS = 120_000;
/**
 * Short enough for a quick test, long enough that a live worker rendering a PDF on a busy 2-core
 * machine (about 10 s with rendering on the main thread, its heartbeat held up meanwhile) is never
 * taken for dead. The defaults, 5 s and 30 s, keep well within 2 minutes too.
 */
const WORKER_TIMING = { WORKER_HEARTBEAT_SECONDS: '2', WORKER_STALE_SECONDS: '20' };

let dir: string;
let db: EmbeddedDatabase;
let port: number;
let running: ServerProcess[] = [];
let cleanups: (() => Promise<unknown> | unknown)[] = [];
/** Set by a test that got to its end; otherwise the processes' output is printed to show why. */
let finished = false;

test.before.each(async () => {
  dir = mkdtempSync(join(tmpdir(), 'course-recovery-'));
  chmodSync(dir, 0o755); // as root, PostgreSQL's own user must reach its data
  db = await startEmbeddedPostgres(join(dir, 'pg'), { persistent: true, log: () => {} });
  port = Number(new URL(db.url).port);
  running = [];
  cleanups = [];
  finished = false;
});

test.after.each(async () => {
  if (!finished) for (const server of running) console.error(`--- output of pid ${server.child.pid}:\n${server.output()}`);
  for (const server of running) {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await server.exited;
  }
  while (cleanups.length) await cleanups.pop()!();
  await db.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function eventually(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
    if (await check().catch(() => false)) return;
  }
  assert.unreachable(`${what}: not within ${ms / 1000} s`);
}

interface Cluster {
  api: ServerProcess;
  workers: Record<'worker-a' | 'worker-b', ServerProcess>;
  client: pg.Client;
  people: People;
  world: TaskWorld;
  storageRoot: string;
}

/** The API process, then two worker processes, all on the external database and one file store. */
async function cluster(): Promise<Cluster> {
  const storageRoot = join(dir, 'files');
  const shared = { DATABASE_URL: db.url, STORAGE_ROOT: storageRoot, SHUTDOWN_GRACE_SECONDS: '2', ...WORKER_TIMING };
  // The API first: it applies the migrations the workers then find done.
  const api = await startServer(mkdtempSync(join(dir, 'api-')), { ...shared, SERVICE_ROLE: 'api' });
  running.push(api);
  const worker = (name: string) =>
    launchServer(mkdtempSync(join(dir, `${name}-`)), { ...shared, SERVICE_ROLE: 'worker', WORKER_CONCURRENCY: '1', PGAPPNAME: name });
  const workers = { 'worker-a': await worker('worker-a'), 'worker-b': await worker('worker-b') };
  running.push(...Object.values(workers));
  await eventually(async () => Object.values(workers).every((w) => w.output().includes('job worker running')), 60_000, 'both workers start');

  const client = await connect();
  await recordClaims(client);
  // The world is written straight into the database, as in the in-process tests.
  const orm: Orm = await createOrm(db.url);
  cleanups.push(() => orm.close());
  const there = { orm, clock: { now: () => new Date() } } as unknown as TestEnv;
  const people = await everyone(there);
  const world = await taskWorld(there, people, { uploadRequirements: CODE });
  return { api, workers, client, people, world, storageRoot };
}

async function connect(): Promise<pg.Client> {
  const client = new pg.Client(db.url);
  client.on('error', () => {}); // a restart drops it; the test connects again
  await client.connect();
  cleanups.push(() => client.end().catch(() => {}));
  return client;
}

/** A student uploads a program whose PDF takes seconds to render; answers its submission's id. */
async function upload(c: Cluster): Promise<number> {
  const form = new FormData();
  form.append('file0', new Blob([bigProgram()], { type: 'text/x-python' }), 'big.py');
  const res = await fetch(`${c.api.baseUrl}/api/projects/${c.world.project}/task_def_id/${c.world.td}/submission`, {
    method: 'POST',
    headers: { Username: c.people.student.creds.username, 'Auth-Token': c.people.student.creds.token },
    body: form,
  });
  assert.is(res.status, 201, await res.text());
  const { rows } = await c.client.query<{ id: number }>('select id from task_submissions order by id desc limit 1');
  return rows[0].id;
}

/** What the student sees of the task through REST: whether its PDF is there or still being made. */
async function pdfState(c: Cluster): Promise<{ has_pdf: boolean; processing_pdf: boolean }> {
  const res = await fetch(`${c.api.baseUrl}/api/projects/${c.world.project}/task_def_id/${c.world.td}/submission_details`, {
    headers: { Username: c.people.student.creds.username, 'Auth-Token': c.people.student.creds.token },
  });
  const { has_pdf, processing_pdf } = (await res.json()) as { has_pdf: boolean; processing_pdf: boolean };
  return { has_pdf, processing_pdf };
}

const jobsLeft = async (client: pg.Client) => (await client.query('select count(*)::int as n from graphile_worker._private_jobs')).rows[0].n as number;

test('kill -9 of the worker in the middle of a PDF job: the other worker builds the PDF within 120 s, and the job completes once', async () => {
  const c = await cluster();
  const submission = await upload(c);
  await eventually(async () => (await claims(c.client, 'accept_submission')).length > 0, 30_000, 'a worker takes the job');
  const [taken] = await claims(c.client, 'accept_submission');
  const holder = c.workers[taken.app as keyof Cluster['workers']];
  const survivor = Object.values(c.workers).find((w) => w !== holder)!;
  assert.ok(holder, `the job was taken by one of the two workers (${taken.app})`);
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(await pdfState(c), { has_pdf: false, processing_pdf: true }, 'killed in the middle of the job');

  holder.child.kill('SIGKILL');
  await holder.exited;
  await eventually(async () => (await pdfState(c)).has_pdf, RECOVERY_MS, 'the PDF is built after the kill');
  assert.equal(await pdfState(c), { has_pdf: true, processing_pdf: false });
  await eventually(async () => (await jobsLeft(c.client)) === 0, 10_000, 'the job is complete');

  const taking = await claims(c.client, 'accept_submission');
  assert.is(taking.length, 2, `taken by the killed worker, then once by the other: ${JSON.stringify(taking)}`);
  assert.is(taking[1].job_id, taken.job_id);
  assert.is.not(taking[1].app, taken.app);
  assert.ok(existsSync(join(c.storageRoot, storageKeys.submissionPdf(submission))));
  assert.match(survivor.output(), /presumed dead/, 'the survivor says what it did');

  // The heartbeat table is the view of live workers: the killed one is gone from it, the survivor is there.
  const { rows: beats } = await c.client.query<{ pid: number; pool_id: string }>('select pid, pool_id from worker_heartbeats');
  assert.equal(
    beats.map((b) => b.pid),
    [survivor.child.pid],
  );
  assert.is(beats[0].pool_id, taking[1].locked_by, 'the row names the pool that locks its jobs');
  assert.is(survivor.child.exitCode, null, 'the survivor is still running');
  finished = true;
});

test('PostgreSQL restarted in the middle of a PDF job: the PDF is built within 120 s of its return, and every process lives on', async () => {
  const c = await cluster();
  await upload(c);
  await eventually(async () => (await claims(c.client, 'accept_submission')).length > 0, 30_000, 'a worker takes the job');
  const [taken] = await claims(c.client, 'accept_submission');
  const holder = c.workers[taken.app as keyof Cluster['workers']];

  // Down until the job has tried to record its PDF and failed, so that its end falls in the outage.
  await db.stop();
  await eventually(async () => /Failed task/.test(holder.output()), 60_000, 'the job fails while the database is away');
  db = await startEmbeddedPostgres(join(dir, 'pg'), { persistent: true, log: () => {}, port });
  const client = await connect();
  await eventually(async () => (await pdfState(c)).has_pdf, RECOVERY_MS, 'the PDF is built after the database returns');
  assert.equal(await pdfState(c), { has_pdf: true, processing_pdf: false });
  await eventually(async () => (await jobsLeft(client)) === 0, 10_000, 'the job is complete');
  const taking = await claims(client, 'accept_submission');
  assert.is(taking.length, 2, `the failed attempt, then one that completed: ${JSON.stringify(taking)}`);
  for (const server of running) assert.is(server.child.exitCode, null, `pid ${server.child.pid} lives on`);
  const { rows } = await client.query<{ n: number }>('select count(*)::int as n from worker_heartbeats');
  assert.is(rows[0].n, 2, 'both workers check in again');
  finished = true;
});

test.run();
