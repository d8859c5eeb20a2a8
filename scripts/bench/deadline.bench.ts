// The deadline, measured (issue 16 §6): a unit of 2,000 students with a one-document task, and
// every student uploads a small 2-page PDF, at a steady rate, all within 60 s, through the real
// HTTP API (multipart `file0` and `trigger` to POST /api/projects/{p}/task_def_id/{td}/submission,
// as the web client sends it). The students, their projects and sign-in tokens are written
// straight into the database; the uploads, the PDF jobs and storage are the service's own.
//
// Two deployments, each on fresh processes sharing one external PostgreSQL and one file://
// STORAGE_URL directory: one process (SERVICE_ROLE=all, as `npm start`), then one API
// (SERVICE_ROLE=api) and two job workers (SERVICE_ROLE=worker). For each it prints the upload
// latency p50/p95/p99 counted from each upload's scheduled moment, the failed uploads by status,
// the time from the first upload until every task has its PDF and the jobs per second that makes,
// the peak resident set of each process (VmHWM from /proc: the kernel's own high-water mark, so no
// sampling gap; worker threads included, PostgreSQL not), and what the processes' own /metrics say
// (server-side upload time, PDF job time and how the jobs were shared). Then the throughput ratio
// of the two deployments. Timings are printed, never asserted.
//
// Scaling down: an attempt is held when at most 1% of the uploads failed and every PDF was built
// within 10 minutes of the last upload (deadline-rules.ts). When either deployment does not hold
// it, both run again with half the students in the same window (so half the rate), down to 100,
// and the output says so. `npm run bench -- deadline --students 500` (or BENCH_DEADLINE_STUDENTS)
// starts lower; BENCH_DEADLINE_WINDOW_SECONDS (60), BENCH_DEADLINE_MAX_ERROR_PCT (1) and
// BENCH_DEADLINE_DRAIN_SECONDS (600) tune the rest. Other variables (WORKER_CONCURRENCY,
// CPU_THREADS, DATABASE_POOL_SIZE, LOG_REQUESTS...) pass through to every service process.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createOrm } from '../../src/db/orm.ts';
import { hashToken } from '../../src/operations/auth/session-tokens.ts';
import { ROLE } from '../../src/policy/roles.ts';
import type { TestEnv } from '../../test/support/env.ts';
import { everyone } from '../../test/support/fixtures.ts';
import { seedTaskDefinition } from '../../test/support/seed-enrolments.ts';
import { freePort, launchServer, startServer, type ServerProcess } from '../../test/support/server-process.ts';
import { taskWorld } from '../../test/support/task-world.ts';
import { judge, metricSum, tallyErrors, type DeadlineBounds } from './deadline-rules.ts';
import type { UploadPlan, UploadReport } from './deadline.worker.ts';
import { quantile, startDatabase, stopDatabase } from './support.ts';

function option(flag: string, variable: string, fallback: number): number {
  const at = process.argv.indexOf(flag);
  const raw = at >= 0 ? process.argv[at + 1] : process.env[variable];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} / ${variable} must be a positive number, got "${raw}"`);
  return n;
}

const REQUESTED = Math.floor(option('--students', 'BENCH_DEADLINE_STUDENTS', 2000));
const WINDOW_MS = option('--window', 'BENCH_DEADLINE_WINDOW_SECONDS', 60) * 1000;
const bounds: DeadlineBounds = {
  maxErrorRate: option('--max-error-pct', 'BENCH_DEADLINE_MAX_ERROR_PCT', 1) / 100,
  drainLimitMs: option('--drain', 'BENCH_DEADLINE_DRAIN_SECONDS', 600) * 1000,
  minStudents: 100,
};
const UPLOAD_TIMEOUT_MS = 180_000;
const DOCUMENT = [{ key: 'file0', name: 'Report', type: 'document' as const }];

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (n: number) => `${n.toFixed(0)} ms`;
const s = (n: number) => `${(n / 1000).toFixed(1)} s`;

/** Open files a process may hold (/proc/self/limits): every upload in flight is a socket at both ends. */
function openFileLimit(): number {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  const soft = Number(line?.split(/\s+/)[3]);
  return Number.isFinite(soft) ? soft : Infinity;
}

/** The peak resident set of a process so far, in MiB (VmHWM). */
function peakRssMiB(pid: number): number {
  const kb = Number(/^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return kb / 1024;
}

/** CPU time a process has used so far, in seconds (utime + stime of /proc/<pid>/stat; 100 ticks a second on Linux). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0; // the process ended
  }
}

/** Every process of the PostgreSQL server `client` is connected to: the postmaster's children (found through /proc). */
async function postgresPids(client: pg.Client): Promise<number[]> {
  const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  const postmaster = Number(readFileSync(`/proc/${rows[0]!.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
  const children = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    });
  return [postmaster, ...children.map(Number)];
}

async function twoPagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let page = 1; page <= 2; page++) {
    const p = doc.addPage();
    for (let line = 0; line < 40; line++)
      p.drawText(`Report page ${page}, line ${line}: the quick brown fox jumps over the lazy dog.`, { x: 50, y: 780 - line * 18, size: 11, font });
  }
  return doc.save();
}

type UploadBody = { body: Uint8Array<ArrayBuffer>; contentType: string };

/** The multipart body a browser's FormData makes of the upload dialog: the PDF as `file0` and the trigger. */
async function uploadBody(pdf: Uint8Array): Promise<UploadBody> {
  const form = new FormData();
  form.append('file0', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'report.pdf');
  form.append('trigger', 'ready_for_feedback');
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { body: new Uint8Array(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

interface Student {
  username: string;
  token: string;
  project: number;
}

/** `count` students enrolled in the unit's tutorial, each signed in, written in three statements. */
async function seedStudents(client: pg.Client, unit: number, tutorial: number, count: number): Promise<Student[]> {
  const { rows } = await client.query<{ username: string; user_id: number; project: number }>(
    `with u as (
       insert into users (username, email, first_name, last_name, student_id, system_role, has_run_first_time_setup, created_at, updated_at)
       select 'dl' || lpad(i::text, 5, '0'), 'dl' || lpad(i::text, 5, '0') || '@students.example.edu', 'Deadline', 'No ' || i, 'DL' || lpad(i::text, 5, '0'),
              $4, true, now(), now()
       from generate_series(1, $1::int) i
       returning id, username),
     p as (insert into projects (unit_id, user_id, created_at, updated_at) select $2::int, id, now(), now() from u returning id, user_id),
     e as (insert into tutorial_enrolments (project_id, tutorial_id, created_at) select id, $3::int, now() from p)
     select u.username, u.id as user_id, p.id as project from u join p on p.user_id = u.id order by u.username`,
    [count, unit, tutorial, ROLE.student],
  );
  const tokens = rows.map(() => randomBytes(24).toString('base64url'));
  await client.query(
    `insert into auth_tokens (user_id, token_hash, expires_at, created_at)
     select * from unnest($1::int[], $2::text[], array_fill(now() + interval '1 day', array[$3::int]), array_fill(now(), array[$3::int]))`,
    [rows.map((r) => r.user_id), tokens.map(hashToken), rows.length],
  );
  return rows.map((r, i) => ({ username: r.username, token: tokens[i]!, project: r.project }));
}

interface Running {
  name: string;
  server: ServerProcess;
  metricsUrl: string;
}

type Topology = 'all' | 'split';
const TOPOLOGY_LABEL: Record<Topology, string> = {
  all: 'one process (SERVICE_ROLE=all)',
  split: 'one API + two workers (SERVICE_ROLE=api, 2 x SERVICE_ROLE=worker)',
};

async function waitForWorker(server: ServerProcess): Promise<void> {
  for (let waited = 0; !server.output().includes('job worker running'); waited += 50) {
    if (server.child.exitCode !== null || waited > 60_000) throw new Error(`a job worker did not start:\n${server.output()}`);
    await sleep(50);
  }
}

async function start(topology: Topology, shared: Record<string, string>, dir: string): Promise<{ api: ServerProcess; processes: Running[] }> {
  const data = (name: string) => mkdtempSync(join(dir, `${name}-`));
  if (topology === 'all') {
    const server = await startServer(data('all'), { ...shared, SERVICE_ROLE: 'all' });
    await waitForWorker(server);
    return { api: server, processes: [{ name: 'all', server, metricsUrl: `${server.baseUrl}/metrics` }] };
  }
  const api = await startServer(data('api'), { ...shared, SERVICE_ROLE: 'api' });
  const processes: Running[] = [{ name: 'api', server: api, metricsUrl: `${api.baseUrl}/metrics` }];
  for (const name of ['worker-1', 'worker-2']) {
    const port = await freePort();
    const server = await launchServer(data(name), { ...shared, SERVICE_ROLE: 'worker', METRICS_PORT: String(port), PGAPPNAME: name });
    processes.push({ name, server, metricsUrl: `http://127.0.0.1:${port}/metrics` });
  }
  await Promise.all(processes.slice(1).map((p) => waitForWorker(p.server)));
  return { api, processes };
}

async function stop(processes: Running[]): Promise<void> {
  for (const { server } of processes) if (server.child.exitCode === null) server.child.kill('SIGTERM');
  await Promise.all(processes.map((p) => p.server.exited));
}

function sendUploads(plan: UploadPlan): Promise<UploadReport> {
  const worker = new Worker(new URL('./deadline.worker.ts', import.meta.url), { workerData: plan });
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the upload thread exited with ${code} before reporting`)));
  });
}

interface Attempt {
  students: number;
  failedUploads: number;
  /** From the first scheduled upload to the moment every uploaded task had its PDF; undefined when not within the limit. */
  allPdfsMs: number | undefined;
  drainMs: number | undefined;
  jobsPerSecond: number | undefined;
  lines: string[];
}

async function attempt(
  topology: Topology,
  students: Student[],
  taskDefinition: number,
  context: { client: pg.Client; shared: Record<string, string>; dir: string; body: UploadBody; warmUp: (api: ServerProcess) => Promise<void> },
): Promise<Attempt> {
  const { client } = context;
  const { api, processes } = await start(topology, context.shared, context.dir);
  const lines: string[] = [];
  try {
    await context.warmUp(api);
    const counts = async () =>
      (
        await client.query<{ tasks: number; pdfs: number }>(
          'select count(*)::int as tasks, count(pdf_path)::int as pdfs from tasks where task_definition_id = $1',
          [taskDefinition],
        )
      ).rows[0]!;
    let report: UploadReport | undefined;
    const uploads = sendUploads({
      baseUrl: api.baseUrl,
      taskDefinition,
      students,
      body: context.body.body,
      contentType: context.body.contentType,
      windowMs: WINDOW_MS,
      timeoutMs: UPLOAD_TIMEOUT_MS,
    }).then((r) => (report = r));
    uploads.catch(() => {});
    // CPU used by each process from the first upload to the last PDF, and what busy database
    // sessions were waiting for (sampled with each poll): where the time goes.
    const pgPids = await postgresPids(client);
    const cpu = () => ({
      processes: processes.map((p) => cpuSeconds(p.server.child.pid!)),
      postgres: pgPids.reduce((sum, pid) => sum + cpuSeconds(pid), 0),
      bench: cpuSeconds(process.pid),
    });
    const cpuBefore = cpu();
    const waits = new Map<string, number>();
    let samples = 0;
    let backlogPeak = 0;
    let doneAt: number | undefined;
    for (;;) {
      const { tasks, pdfs } = await counts();
      backlogPeak = Math.max(backlogPeak, tasks - pdfs);
      const { rows: busy } = await client.query<{ wait: string | null }>(
        `select wait_event_type || ':' || wait_event as wait from pg_stat_activity
         where state <> 'idle' and backend_type = 'client backend' and pid <> pg_backend_pid()`,
      );
      samples++;
      for (const { wait } of busy) waits.set(wait ?? 'running', (waits.get(wait ?? 'running') ?? 0) + 1);
      if (report) {
        const ok = report.outcomes.filter((o) => o === 201).length;
        if (pdfs >= ok && tasks === pdfs) {
          doneAt = now();
          break;
        }
        if (now() > report.lastAnswerAt + bounds.drainLimitMs) break;
      }
      await sleep(250);
    }
    await uploads;
    const cpuAfter = cpu();
    const r = report!;
    const ok = r.outcomes.filter((o) => o === 201).length;
    const errors = tallyErrors(r.outcomes);
    const failed = students.length - ok;
    const allPdfsMs = doneAt === undefined ? undefined : doneAt - r.startedAt;
    const drainMs = doneAt === undefined ? undefined : Math.max(0, doneAt - r.lastAnswerAt);
    const jobsPerSecond = allPdfsMs === undefined ? undefined : ok / (allPdfsMs / 1000);
    const lat = r.latenciesMs;
    const tag = `deadline_${topology}`;
    lines.push(
      `${tag}_upload p50 ${ms(quantile(lat, 0.5))}, p95 ${ms(quantile(lat, 0.95))}, p99 ${ms(quantile(lat, 0.99))}, max ${ms(Math.max(...lat))}; ` +
        `${ok} × 201, errors ${failed}${errors.length ? ` (${errors.map(([k, n]) => `${n} × ${k}`).join(', ')})` : ''}; ` +
        `client send lag max ${ms(r.maxSendLagMs)}; last answer ${s(r.lastAnswerAt - r.startedAt)} after the first upload`,
    );
    for (const [status, sample] of Object.entries(r.samples)) lines.push(`  first ${status} answer: ${sample}`);
    const { tasks, pdfs } = await counts();
    lines.push(
      allPdfsMs === undefined
        ? `${tag}_pdfs NOT ALL BUILT: ${pdfs} of ${tasks} tasks have their PDF ${s(bounds.drainLimitMs)} after the last upload; backlog peak ${backlogPeak}`
        : `${tag}_pdfs every task has its PDF ${s(allPdfsMs)} after the first upload (${s(drainMs!)} after the last answer): ` +
            `${jobsPerSecond!.toFixed(1)} jobs/s; backlog peak ${backlogPeak} uploads waiting for their PDF`,
    );
    const failedJobs = (
      await client.query<{ n: number }>(
        `select count(*)::int as n from graphile_worker.jobs where task_identifier = 'accept_submission' and last_error is not null`,
      )
    ).rows[0]!.n;
    const rss = processes.map((p) => `${p.name} ${peakRssMiB(p.server.child.pid!).toFixed(0)} MiB`);
    lines.push(`${tag}_rss peak (VmHWM) ${rss.join(', ')}; PostgreSQL not counted`);
    const wall = (now() - r.startedAt) / 1000;
    const spent = processes.map((_, i) => cpuAfter.processes[i]! - cpuBefore.processes[i]!);
    const used = processes.map((p, i) => `${p.name} ${spent[i]!.toFixed(1)} s`);
    const service = spent.reduce((a, b) => a + b, 0) + (cpuAfter.postgres - cpuBefore.postgres);
    // CPU per student does not depend on how busy the machine is; the wall-clock figures above do.
    lines.push(
      `${tag}_cpu over ${wall.toFixed(1)} s (x ${availableParallelism()} cores = ${(wall * availableParallelism()).toFixed(0)} core-s): ${used.join(', ')}, ` +
        `PostgreSQL ${(cpuAfter.postgres - cpuBefore.postgres).toFixed(1)} s (service and database ${ms((service / students.length) * 1000)} per student), ` +
        `bench client ${(cpuAfter.bench - cpuBefore.bench).toFixed(1)} s; load average ${loadavg()[0]!.toFixed(1)}`,
    );
    const topWaits = [...waits].sort((a, b) => b[1] - a[1]).slice(0, 6);
    lines.push(`${tag}_db busy sessions per poll (${samples} polls): ${topWaits.map(([w, n]) => `${w} ${(n / samples).toFixed(2)}`).join(', ')}`);
    // What the processes measured themselves: where the time went, and how the jobs were shared.
    const scrapes = await Promise.all(processes.map(async (p) => ({ name: p.name, text: await (await fetch(p.metricsUrl)).text() })));
    const parts: string[] = [];
    for (const { name, text } of scrapes) {
      const uploadsSeen = metricSum(text, 'http_request_duration_seconds_count', { method: 'POST', route: /\/submission$/ });
      if (uploadsSeen > 0) {
        const sum = metricSum(text, 'http_request_duration_seconds_sum', { method: 'POST', route: /\/submission$/ });
        parts.push(`${name} upload route mean ${ms((sum / uploadsSeen) * 1000)} (n=${uploadsSeen})`);
      }
      const jobs = metricSum(text, 'job_duration_seconds_count', { task: 'accept_submission' });
      if (jobs > 0) {
        const sum = metricSum(text, 'job_duration_seconds_sum', { task: 'accept_submission' });
        parts.push(`${name} ran ${jobs} PDF jobs, mean ${ms((sum / jobs) * 1000)}`);
      }
    }
    lines.push(`${tag}_server ${parts.join('; ')}; failed PDF job attempts ${failedJobs}`);
    return { students: students.length, failedUploads: failed, allPdfsMs, drainMs, jobsPerSecond, lines };
  } finally {
    await stop(processes);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'course-bench-deadline-'));
const db = await startDatabase();
const orm = await createOrm(db.url);
const client = new pg.Client(db.url);
await client.connect();
try {
  const fileLimit = openFileLimit();
  let students = REQUESTED;
  const notes: string[] = [];
  if (students > fileLimit - 256) {
    students = fileLimit - 256;
    notes.push(`scaled down from ${REQUESTED} to ${students} students: the open-file limit (${fileLimit}) must fit every upload in flight at once`);
  }
  const env = { orm, clock: { now: () => new Date() } } as unknown as TestEnv;
  const people = await everyone(env);
  const world = await taskWorld(env, people, { uploadRequirements: DOCUMENT }, {}, 'DEADLN');
  const seedStarted = performance.now();
  const everybody = await seedStudents(client, world.unit, world.tutorial, students);
  const pdf = await twoPagePdf();
  const body = await uploadBody(pdf);
  console.log(
    `deadline: unit of ${students} students seeded in ${s(performance.now() - seedStarted)}; each uploads a 2-page PDF (${pdf.length} bytes; ` +
      `multipart ${body.body.length} bytes) at a steady rate over ${s(WINDOW_MS)}; ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)} at start`,
  );
  for (const note of notes) console.log(`  ${note}`);

  // A few uploads before the measured ones, so the first students do not pay for cold code.
  const warmHeaders = { Username: people.student.creds.username, 'Auth-Token': people.student.creds.token };
  const warmUp = async (api: ServerProcess) => {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${api.baseUrl}/api/projects/${world.project}/task_def_id/${world.td}/submission`, {
        method: 'POST',
        headers: { ...warmHeaders, 'Content-Type': body.contentType },
        body: body.body,
      });
      if (res.status !== 201) throw new Error(`warm-up upload answered ${res.status}: ${await res.text()}`);
      for (let waited = 0; ; waited += 100) {
        const { rows } = await client.query('select pdf_path from tasks where project_id = $1 and task_definition_id = $2', [world.project, world.td]);
        if (rows[0]?.pdf_path) break;
        if (waited > 60_000) throw new Error('warm-up: no PDF after 60 s');
        await sleep(100);
      }
    }
  };

  const shared = { DATABASE_URL: db.url, STORAGE_URL: `file://${join(dir, 'files')}`, SHUTDOWN_GRACE_SECONDS: '5' };
  let definitions = 0;
  const results = new Map<Topology, Attempt>();
  for (let held = false; !held; ) {
    console.log(`deadline attempt: ${students} students, ${((students / WINDOW_MS) * 1000).toFixed(1)} uploads/s`);
    held = true;
    for (const topology of ['all', 'split'] as const) {
      const td = await seedTaskDefinition(env, world.unit, `D${++definitions}`, { uploadRequirements: DOCUMENT });
      console.log(` ${TOPOLOGY_LABEL[topology]}`);
      const result = await attempt(topology, everybody.slice(0, students), td, { client, shared, dir, body, warmUp });
      for (const line of result.lines) console.log(`  ${line}`);
      results.set(topology, result);
      const verdict = judge(result, bounds);
      if (!verdict.held) {
        held = false;
        if (verdict.next === undefined) throw new Error(`this machine does not hold even ${students} students: ${verdict.why}`);
        console.log(`  SCALED DOWN: ${TOPOLOGY_LABEL[topology]} did not hold ${students} students (${verdict.why}); both run again with ${verdict.next}`);
        students = verdict.next;
        break;
      }
    }
  }
  const [all, split] = [results.get('all')!, results.get('split')!];
  console.log(
    `deadline ratio split/all ${(split.jobsPerSecond! / all.jobsPerSecond!).toFixed(2)} (jobs/s ${split.jobsPerSecond!.toFixed(1)} against ${all.jobsPerSecond!.toFixed(1)}; ` +
      `every PDF ${s(split.allPdfsMs!)} against ${s(all.allPdfsMs!)}; ${students} students${students < REQUESTED ? `, scaled down from ${REQUESTED}` : ''}; ` +
      `${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)} at the end)`,
  );
} finally {
  await client.end();
  await orm.close();
  await stopDatabase(db);
  rmSync(dir, { recursive: true, force: true });
}
