// The deployment's topology as real processes (issue 16 §3): one PostgreSQL, one S3-compatible store
// (s3rver), two SERVICE_ROLE=api processes on their own ports and two SERVICE_ROLE=worker processes,
// each with a DATA_DIR of its own, so that nothing local is shared. All four start at once on an
// empty database, as `deploy.replicas: 2` starts them. The tests run in order on that one cluster:
// the teaching loop alternating between the APIs, sessions and the sign-in throttle across them, a
// worker killed with kill -9 in the middle of a job, and an API stopped with SIGTERM during a burst
// (last, as it leaves one API). docs/operating/scaling.md.
//
// Nothing depends on timing luck: every wait polls for a state with a generous deadline; "in the
// middle of a job" is made by holding the workers' link to the object store (test/support/tcp-gate.ts),
// and "in flight during the stop" by an upload whose body the test finishes after the signal.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { UploadRequirement } from '../../schema/units.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.ts';
import { createOrm, type Orm } from '../../src/db/orm.ts';
import { issueToken } from '../../src/operations/auth/session-tokens.ts';
import type { TestEnv } from '../support/env.ts';
import { createUser, everyone, PASSWORD, type People } from '../support/fixtures.ts';
import { claims, recordClaims } from '../support/job-claims.ts';
import { pdfPagesText } from '../support/pdf-text.ts';
import { s3Environment, startS3Server, type S3Server } from '../support/s3-server.ts';
import { seedTaskDefinition } from '../support/seed-enrolments.ts';
import { ADMIN_PASSWORD, launchServer, type ServerProcess } from '../support/server-process.ts';
import { tcpGate, type TcpGate } from '../support/tcp-gate.ts';
import { taskWorld, type TaskWorld } from '../support/task-world.ts';

const test = suite('operations: one PostgreSQL, one object store, two API and two worker processes');

const CODE: UploadRequirement[] = [{ key: 'file0', name: 'Program', type: 'code' }];
/** The documented bound of a signed-out token on another API (SESSION_CACHE_SECONDS), set short here. */
const SESSION_CACHE_SECONDS = 3;
/** The sign-in throttle's per-user limit, low so that failures on both APIs reach it. */
const MAX_FAILURES = 4;
/**
 * Short so that a killed worker's job moves within seconds; the stale interval stays well above any
 * stretch a live worker's event loop is busy on a loaded 2-core machine (rendering runs in threads).
 */
const WORKER_TIMING = { WORKER_HEARTBEAT_SECONDS: '2', WORKER_STALE_SECONDS: '12' };
/** Generous deadlines: a state polled for, never a duration asserted. */
const START_MS = 180_000;
const JOB_MS = 120_000;

type Worker = 'worker-a' | 'worker-b';

let dir: string;
let db: EmbeddedDatabase;
let s3: S3Server;
const gates = {} as Record<Worker, TcpGate>;
let api1: ServerProcess;
let api2: ServerProcess;
const workers = {} as Record<Worker, ServerProcess>;
let running: ServerProcess[] = [];
/** Each process's own DATA_DIR, by name. */
const dataDirs: Record<string, string> = {};
let client: pg.Client;
let orm: Orm;
let people: People;
let world: TaskWorld;
/** The AWS variables startS3Server sets in this process, put back afterwards. */
let savedEnv: Record<string, string | undefined> = {};
/** Set by each test that got to its end; otherwise the processes' output is printed to show why. */
let failed = false;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function eventually(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until; await sleep(200)) {
    if (await check().catch(() => false)) return;
  }
  assert.unreachable(`${what}: not within ${ms / 1000} s`);
}

/** Runs a test's body; a failure keeps the processes' output for the end. */
function step(name: string, body: () => Promise<void>): void {
  test(name, async () => {
    try {
      await body();
    } catch (error) {
      failed = true;
      throw error;
    }
  });
}

test.before(async () => {
  savedEnv = Object.fromEntries(Object.keys(s3Environment('')).map((k) => [k, process.env[k]]));
  dir = mkdtempSync(join(tmpdir(), 'course-topology-'));
  chmodSync(dir, 0o755); // as root, PostgreSQL's own user must reach its data
  // An empty database: the processes below migrate it, all at once.
  db = await startEmbeddedPostgres(join(dir, 'pg'), { persistent: false, log: () => {} });
  s3 = await startS3Server();
  const s3Port = Number(new URL(s3.endpoint).port);
  gates['worker-a'] = await tcpGate(s3Port);
  gates['worker-b'] = await tcpGate(s3Port);

  const shared = {
    DATABASE_URL: db.url,
    STORAGE_URL: `s3://${s3.bucket}/course`,
    S3_FORCE_PATH_STYLE: 'true',
    ...s3Environment(s3.endpoint),
    SESSION_CACHE_SECONDS: String(SESSION_CACHE_SECONDS),
    SIGNIN_MAX_FAILURES_PER_USER: String(MAX_FAILURES),
    // Long enough for the upload the SIGTERM test finishes after the signal.
    SHUTDOWN_GRACE_SECONDS: '60',
    ...WORKER_TIMING,
  };
  const dataDir = (name: string) => (dataDirs[name] = mkdtempSync(join(dir, `${name}-`)));
  // Each worker reaches the store through a gate of its own (the same bucket), and names its
  // database connections, so that a job's claims say which process took it.
  const worker = (name: Worker) =>
    launchServer(dataDir(name), {
      ...shared,
      SERVICE_ROLE: 'worker',
      WORKER_CONCURRENCY: '1',
      PGAPPNAME: name,
      AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${gates[name].port}`,
    });
  [api1, api2, workers['worker-a'], workers['worker-b']] = await Promise.all([
    launchServer(dataDir('api-1'), { ...shared, SERVICE_ROLE: 'api' }),
    launchServer(dataDir('api-2'), { ...shared, SERVICE_ROLE: 'api' }),
    worker('worker-a'),
    worker('worker-b'),
  ]);
  running = [api1, api2, ...Object.values(workers)];
  // A process that exits while the others start fails the start at once, with its output.
  const started = async (check: () => Promise<boolean>, what: string) => {
    for (const until = Date.now() + START_MS; Date.now() < until; await sleep(200)) {
      const gone = running.find((server) => server.child.exitCode !== null);
      if (gone) throw new Error(`pid ${gone.child.pid} exited (${gone.child.exitCode}) during the start:\n${gone.output()}`);
      if (await check().catch(() => false)) return;
    }
    assert.unreachable(`${what}: not within ${START_MS / 1000} s`);
  };
  try {
    for (const api of [api1, api2]) await started(async () => (await fetch(`${api.baseUrl}/api/ready`)).status === 200, `API ${api.baseUrl} is ready`);
    for (const w of Object.values(workers)) await started(async () => w.output().includes('job worker running'), 'the workers start');
  } catch (error) {
    failed = true;
    throw error;
  }

  client = new pg.Client(db.url);
  await client.connect();
  await recordClaims(client);
  // The world is written straight into the database, as in the in-process tests.
  orm = await createOrm(db.url);
  const there = { orm, clock: { now: () => new Date() } } as unknown as TestEnv;
  people = await everyone(there);
  world = await taskWorld(there, people, { uploadRequirements: CODE });
});

test.after(async () => {
  if (failed) for (const server of running) console.error(`--- output of pid ${server.child.pid}:\n${server.output()}`);
  for (const gate of Object.values(gates)) gate.release();
  for (const server of running) {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await server.exited;
  }
  await client?.end().catch(() => {});
  await orm?.close();
  for (const gate of Object.values(gates)) await gate.close();
  await s3?.close();
  await db?.stop();
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  rmSync(dir, { recursive: true, force: true });
});

const headers = (who: { username: string; token: string }) => ({ Username: who.username, 'Auth-Token': who.token });

async function call(server: ServerProcess, method: string, path: string, who: { username: string; token: string }, json?: unknown) {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { ...headers(who), ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) };
}

/** The student uploads a program for task definition `td` through `server`. */
async function upload(server: ServerProcess, td: number, program: string): Promise<void> {
  const form = new FormData();
  form.append('file0', new Blob([program], { type: 'text/x-python' }), 'program.py');
  const res = await fetch(`${server.baseUrl}/api/projects/${world.project}/task_def_id/${td}/submission`, {
    method: 'POST',
    headers: headers(people.student.creds),
    body: form,
  });
  assert.is(res.status, 201, await res.text());
}

/** What the student sees of a task through `server`: whether its PDF is there or still being made. */
async function pdfState(server: ServerProcess, td: number): Promise<{ has_pdf: boolean; processing_pdf: boolean }> {
  const res = await call(server, 'GET', `/api/projects/${world.project}/task_def_id/${td}/submission_details`, people.student.creds);
  const { has_pdf, processing_pdf } = res.json() as { has_pdf: boolean; processing_pdf: boolean };
  return { has_pdf, processing_pdf };
}

const jobsLeft = async () => (await client.query<{ n: number }>('select count(*)::int as n from graphile_worker._private_jobs')).rows[0].n;

step('all four processes started at once on an empty database: it was migrated once and one Admin was made', async () => {
  const outputs = running.map((server) => server.output());
  assert.is(outputs.filter((o) => o.includes('created Admin user')).length, 1, 'exactly one process creates the Admin');
  const res = await fetch(`${api2.baseUrl}/api/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  assert.is(res.status, 201, 'that Admin signs in on either API');
});

step('the teaching loop alternates between the APIs, and each job runs exactly once', async () => {
  const line = 'print("topology proven")';
  // The student uploads through API 1; a worker builds the PDF from the stored objects.
  await upload(api1, world.td, `${line}\n`);
  await eventually(async () => (await pdfState(api2, world.td)).has_pdf, JOB_MS, 'the PDF is built');

  // The tutor reads it and comments through API 2.
  const pdf = await fetch(`${api2.baseUrl}/api/projects/${world.project}/task_def_id/${world.td}/submission`, { headers: headers(people.tutor.creds) });
  assert.is(pdf.status, 200);
  assert.is(pdf.headers.get('content-type'), 'application/pdf');
  const pages = await pdfPagesText(new Uint8Array(await pdf.arrayBuffer()));
  assert.ok(
    pages.some((text) => text.includes('topology proven')),
    'the PDF holds the uploaded program, read by the worker from the object store',
  );
  const comment = await call(api2, 'POST', `/api/projects/${world.project}/task_def_id/${world.td}/comments`, people.tutor.creds, {
    comment: 'Well done, see line 1',
  });
  assert.is(comment.status, 201, comment.text);

  // The tutor marks it through API 1.
  const marked = await call(api1, 'PUT', `/api/projects/${world.project}/task_def_id/${world.td}`, people.tutor.creds, { trigger: 'complete' });
  assert.is(marked.status, 200, marked.text);
  assert.is(marked.json().status, 'complete');

  // The student sees the result through API 2.
  const project = await call(api2, 'GET', `/api/projects/${world.project}`, people.student.creds);
  assert.is(project.status, 200);
  const task = (project.json().tasks as { task_definition_id: number; status: string }[]).find((t) => t.task_definition_id === world.td);
  assert.is(task?.status, 'complete');
  const comments = await call(api2, 'GET', `/api/projects/${world.project}/task_def_id/${world.td}/comments`, people.student.creds);
  assert.ok(
    (comments.json() as { comment: string }[]).some((c) => c.comment === 'Well done, see line 1'),
    'the comment made on API 2 is seen',
  );

  // Every job the loop queued is done, and each was taken by a worker exactly once.
  await eventually(async () => (await jobsLeft()) === 0, JOB_MS, 'every job is complete');
  const taken = await claims(client);
  assert.ok(
    taken.some((c) => c.task === 'accept_submission'),
    `the PDF job ran: ${JSON.stringify(taken)}`,
  );
  const perJob = new Map<string, number>();
  for (const c of taken) perJob.set(c.job_id, (perJob.get(c.job_id) ?? 0) + 1);
  assert.equal(
    [...perJob.values()].filter((n) => n !== 1),
    [],
    `every job taken once: ${JSON.stringify(taken)}`,
  );
  for (const c of taken) assert.ok(c.app in workers, `taken by a worker process (${c.app})`);
});

step('a token signed out through API 1 is refused by API 2 within SESSION_CACHE_SECONDS', async () => {
  const tutor = { username: people.tutor.creds.username, token: await issueToken(orm.em.fork(), people.tutor.user, new Date(), false) };
  // API 2 has verified it, so it holds it in its cache.
  assert.is((await call(api2, 'GET', '/api/unit_roles', tutor)).status, 200);
  assert.is((await call(api2, 'GET', '/api/unit_roles', tutor)).status, 200);

  assert.is((await call(api1, 'DELETE', '/api/auth', tutor)).status, 204);
  const signedOut = performance.now();
  assert.is((await call(api1, 'GET', '/api/unit_roles', tutor)).status, 419, 'refused at once where it was signed out');
  // Every request API 2 accepts, and the first it refuses, by when it was sent (after the sign-out).
  const boundMs = SESSION_CACHE_SECONDS * 1000;
  let lastAccepted = 0;
  let refused: number | undefined;
  for (const until = signedOut + 60_000; refused === undefined && performance.now() < until; await sleep(100)) {
    const sent = performance.now() - signedOut;
    const { status } = await call(api2, 'GET', '/api/unit_roles', tutor);
    if (status === 419) refused = sent;
    else if (status === 200) lastAccepted = sent;
    else assert.unreachable(`API 2 answered ${status}`);
  }
  assert.ok(refused !== undefined, 'API 2 refuses the token');
  // The promise itself, exact: API 2 read the session before the sign-out and trusts that read for
  // the bound, so nothing sent later than the bound after the sign-out is accepted.
  assert.ok(lastAccepted < boundMs, `accepted by API 2 until ${Math.round(lastAccepted)} ms after the sign-out, within ${boundMs} ms`);
  // And the refusal is seen soon after: the bound, plus one request and the polling on a busy machine.
  assert.ok(refused! <= boundMs + 2000, `refused by API 2 from ${Math.round(refused!)} ms after the sign-out`);
});

step('the sign-in throttle counts failures made on both APIs together', async () => {
  const there = { orm } as unknown as TestEnv;
  await createUser(there, 'throttled', 'Student');
  const signIn = async (server: ServerProcess, password: string) =>
    (
      await fetch(`${server.baseUrl}/api/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'throttled', password }),
      })
    ).status;
  // Half of the allowance on each API: neither alone has seen enough to refuse.
  for (let i = 0; i < MAX_FAILURES; i++) assert.is(await signIn(i % 2 ? api2 : api1, `wrong${i}`), 401, `wrong password ${i + 1}`);
  assert.is(await signIn(api1, PASSWORD), 429, 'refused on API 1, even with the right password');
  assert.is(await signIn(api2, PASSWORD), 429, 'refused on API 2, even with the right password');
  const { rows } = await client.query<{ points: number }>("select points from sign_in_failures where key like 'address-user:%/throttled'");
  assert.equal(
    rows.map((r) => r.points),
    [MAX_FAILURES],
  );
});

step('kill -9 of the worker in the middle of a job: the other worker completes it', async () => {
  const td = await seedTaskDefinition({ orm } as unknown as TestEnv, world.unit, 'P2', { uploadRequirements: CODE });
  const before = (await claims(client, 'accept_submission')).length;
  // Whichever worker takes the job stops at its first read of the stored upload, and stays there.
  for (const gate of Object.values(gates)) gate.hold();
  await upload(api1, td, 'print("survives a kill")\n');
  await eventually(async () => (await claims(client, 'accept_submission')).length > before, JOB_MS, 'a worker takes the job');
  const [taken] = (await claims(client, 'accept_submission')).slice(before);
  const holderName = taken.app as Worker;
  const survivorName = (Object.keys(workers) as Worker[]).find((name) => name !== holderName)!;
  assert.ok(holderName in workers, `the job was taken by one of the two workers (${taken.app})`);
  assert.equal(await pdfState(api2, td), { has_pdf: false, processing_pdf: true }, 'killed in the middle of the job');

  workers[holderName].child.kill('SIGKILL');
  await workers[holderName].exited;
  gates[survivorName].release();
  await eventually(async () => (await pdfState(api2, td)).has_pdf, JOB_MS, 'the PDF is built after the kill');
  assert.equal(await pdfState(api1, td), { has_pdf: true, processing_pdf: false });
  await eventually(async () => (await jobsLeft()) === 0, JOB_MS, 'the job is complete');

  const taking = (await claims(client, 'accept_submission')).slice(before);
  assert.equal(
    taking.map((c) => [c.job_id, c.app]),
    [
      [taken.job_id, holderName],
      [taken.job_id, survivorName],
    ],
    'taken by the killed worker, then once by the other',
  );
  assert.match(workers[survivorName].output(), /presumed dead/, 'the survivor says what it did');
  const pdf = await fetch(`${api1.baseUrl}/api/projects/${world.project}/task_def_id/${td}/submission`, { headers: headers(people.student.creds) });
  assert.ok((await pdfPagesText(new Uint8Array(await pdf.arrayBuffer()))).some((text) => text.includes('survives a kill')));
});

/**
 * An upload to API 1 whose body arrives in two parts; the second is sent when `finish` is called.
 * Resolves with the answer's status once the request is over.
 */
function uploadInTwoParts(server: ServerProcess, td: number): { finish: () => void; status: Promise<number> } {
  const boundary = `----topology${Date.now()}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file0"; filename="slow.py"\r\nContent-Type: text/x-python\r\n\r\nprint("first half")\n`;
  const tail = `print("second half")\n\r\n--${boundary}--\r\n`;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(new TextEncoder().encode(head));
      await finished;
      controller.enqueue(new TextEncoder().encode(tail));
      controller.close();
    },
  });
  const status = fetch(`${server.baseUrl}/api/projects/${world.project}/task_def_id/${td}/submission`, {
    method: 'POST',
    headers: { ...headers(people.student.creds), 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
  } as RequestInit).then(async (res) => {
    await res.arrayBuffer();
    return res.status;
  });
  return { finish, status };
}

step('SIGTERM of one API during a burst: requests in flight on it complete, it exits 0, and the other answers every request', async () => {
  const td = await seedTaskDefinition({ orm } as unknown as TestEnv, world.unit, 'P3', { uploadRequirements: CODE });
  const path = `/api/units/${world.unit}`;
  const who = people.tutor.creds;
  // What a load balancer does: a GET whose connection API 1 refuses (it has stopped listening) goes to API 2.
  const answers = { api1: new Map<number, number>(), api2: new Map<number, number>() };
  const count = (on: keyof typeof answers, status: number) => answers[on].set(status, (answers[on].get(status) ?? 0) + 1);
  let api1Gone = false;
  let bursting = true;
  const requester = async (n: number) => {
    for (let i = 0; bursting; i++) {
      if ((n + i) % 2 === 0 && !api1Gone) {
        const status = await call(api1, 'GET', path, who).then(
          (r) => r.status,
          () => undefined,
        );
        if (status !== undefined) {
          count('api1', status);
          continue;
        }
      }
      count('api2', (await call(api2, 'GET', path, who)).status);
    }
  };
  const burst = Array.from({ length: 6 }, (_, n) => requester(n));
  await eventually(async () => (answers.api1.get(200) ?? 0) > 10 && (answers.api2.get(200) ?? 0) > 10, JOB_MS, 'the burst reaches both APIs');

  const inFlight = uploadInTwoParts(api1, td);
  // The request is in: API 1 has checked the student's credentials and streams the file to its disk.
  const incoming = join(dataDirs['api-1'], 'incoming');
  await eventually(async () => readdirSync(incoming).some((name) => !name.startsWith('.')), JOB_MS, 'the upload is in flight on API 1');
  api1.child.kill('SIGTERM');
  await eventually(async () => api1.output().includes('SIGTERM: finishing requests'), JOB_MS, 'API 1 begins its stop');
  const answeredBefore = answers.api2.get(200) ?? 0;
  inFlight.finish();
  assert.is(await inFlight.status, 201, 'the upload in flight when the stop began completes');
  assert.is(await api1.exited, 0, 'API 1 exits 0');
  api1Gone = true;
  await eventually(async () => (answers.api2.get(200) ?? 0) > answeredBefore + 20, JOB_MS, 'API 2 keeps answering');
  bursting = false;
  await Promise.all(burst);

  assert.equal([...answers.api2.keys()], [200], `every answer of API 2 is 200: ${JSON.stringify([...answers.api2])}`);
  assert.equal([...answers.api1.keys()], [200], `every answer of API 1 is 200: ${JSON.stringify([...answers.api1])}`);
  const { rows } = await client.query<{ n: number }>(
    'select count(*)::int as n from task_submissions s join tasks t on t.id = s.task_id where t.task_definition_id = $1',
    [td],
  );
  assert.is(rows[0].n, 1, 'the upload finished during the stop is recorded');
});

test.run();
