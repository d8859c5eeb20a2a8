// How long a PDF job stays stuck (issue 14 §2), with the default WORKER_HEARTBEAT_SECONDS and
// WORKER_STALE_SECONDS, on real processes sharing one external PostgreSQL: an API process and two
// worker processes. Three uploads of a program whose PDF takes seconds:
//   normal   upload → has_pdf, nothing going wrong (the baseline);
//   kill -9  the worker holding the job is killed: kill → the other worker takes the job, → has_pdf;
//   restart  PostgreSQL stops while the job runs and starts again once the job has failed to
//            record its result: database back → has_pdf.
// Prints the figures and each against the baseline; it fails only when a step never happens.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.ts';
import { createOrm } from '../../src/db/orm.ts';
import { loadConfig } from '../../src/config.ts';
import type { TestEnv } from '../../test/support/env.ts';
import { everyone } from '../../test/support/fixtures.ts';
import { claims, recordClaims } from '../../test/support/job-claims.ts';
import { bigProgram } from '../../test/support/sample-files.ts';
import { seedTaskDefinition } from '../../test/support/seed-enrolments.ts';
import { launchServer, startServer, type ServerProcess } from '../../test/support/server-process.ts';
import { taskWorld } from '../../test/support/task-world.ts';

const CODE = [{ key: 'file0', name: 'Program', type: 'code' as const }];
const LIMIT_MS = 300_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function until(check: () => Promise<boolean> | boolean, what: string): Promise<number> {
  for (const end = performance.now() + LIMIT_MS; performance.now() < end; await sleep(100)) {
    if (await Promise.resolve(check()).catch(() => false)) return performance.now();
  }
  throw new Error(`${what}: not within ${LIMIT_MS / 1000} s`);
}

const dir = mkdtempSync(join(tmpdir(), 'course-bench-recovery-'));
chmodSync(dir, 0o755);
let db: EmbeddedDatabase = await startEmbeddedPostgres(join(dir, 'pg'), { persistent: true, log: () => {} });
const port = Number(new URL(db.url).port);
const servers: ServerProcess[] = [];
const shared = { DATABASE_URL: db.url, STORAGE_ROOT: join(dir, 'files'), SHUTDOWN_GRACE_SECONDS: '2' };
const workers = new Map<string, ServerProcess>();
async function startWorker(name: string): Promise<void> {
  const worker = await launchServer(mkdtempSync(join(dir, `${name}-`)), { ...shared, SERVICE_ROLE: 'worker', WORKER_CONCURRENCY: '1', PGAPPNAME: name });
  servers.push(worker);
  workers.set(name, worker);
  await until(() => worker.output().includes('job worker running'), `${name} starts`);
}

try {
  const api = await startServer(mkdtempSync(join(dir, 'api-')), { ...shared, SERVICE_ROLE: 'api' });
  servers.push(api);
  await Promise.all([startWorker('worker-a'), startWorker('worker-b')]);
  const connect = async () => {
    const c = new pg.Client(db.url);
    c.on('error', () => {}); // the restart drops it; a new one is made
    await c.connect();
    return c;
  };
  let client = await connect();
  await recordClaims(client);
  const orm = await createOrm(db.url);
  const env = { orm, clock: { now: () => new Date() } } as unknown as TestEnv;
  const people = await everyone(env);
  const world = await taskWorld(env, people, { uploadRequirements: CODE }, {}, 'BENCHR');
  const definitions = [
    world.td,
    await seedTaskDefinition(env, world.unit, 'P2', { uploadRequirements: CODE }),
    await seedTaskDefinition(env, world.unit, 'P3', { uploadRequirements: CODE }),
  ];
  await orm.close();
  const headers = { Username: people.student.creds.username, 'Auth-Token': people.student.creds.token };
  const base = (td: number) => `${api.baseUrl}/api/projects/${world.project}/task_def_id/${td}`;
  const hasPdf = async (td: number) => ((await (await fetch(`${base(td)}/submission_details`, { headers })).json()) as { has_pdf: boolean }).has_pdf;
  const upload = async (td: number) => {
    const form = new FormData();
    form.append('file0', new Blob([bigProgram()], { type: 'text/x-python' }), 'big.py');
    const res = await fetch(`${base(td)}/submission`, { method: 'POST', headers, body: form });
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    return performance.now();
  };
  /** The worker process that took the latest job, once one has. */
  const holder = async (claimsBefore: number) => {
    await until(async () => (await claims(client, 'accept_submission')).length > claimsBefore, 'a worker takes the job');
    return workers.get((await claims(client, 'accept_submission'))[claimsBefore].app)!;
  };
  const { heartbeatSeconds, staleSeconds } = loadConfig({}).workerLiveness;
  console.log(
    `worker-recovery: 7,000 lines of code to PDF; API + 2 worker processes on one PostgreSQL; heartbeat ${heartbeatSeconds} s, ` +
      `stale after ${staleSeconds} s (the defaults)`,
  );

  const t0 = await upload(definitions[0]);
  const normal = (await until(() => hasPdf(definitions[0]), 'the PDF is built')) - t0;
  console.log(`worker_recovery_normal upload → has_pdf ${s(normal)}`);

  await upload(definitions[1]);
  const victim = await holder(1);
  await sleep(500);
  victim.child.kill('SIGKILL');
  const killed = performance.now();
  await victim.exited;
  const rerun = (await until(async () => (await claims(client, 'accept_submission')).length > 2, 'another worker takes the job')) - killed;
  const built = (await until(() => hasPdf(definitions[1]), 'the PDF is built after the kill')) - killed;
  console.log(
    `worker_recovery_kill kill -9 → job taken again ${s(rerun)}, → has_pdf ${s(built)} (ratio to normal ${(built / normal).toFixed(2)}; ` +
      `before this change: not within 150 s, graphile-worker's own limit 4 h)`,
  );

  await startWorker('worker-c'); // as an orchestrator would replace the killed one
  await upload(definitions[2]);
  const caught = await holder(3);
  await db.stop();
  await until(() => /Failed task/.test(caught.output()), 'the job fails while the database is away');
  db = await startEmbeddedPostgres(join(dir, 'pg'), { persistent: true, log: () => {}, port });
  const back = performance.now();
  await client.end().catch(() => {});
  client = await connect();
  const afterRestart = (await until(() => hasPdf(definitions[2]), 'the PDF is built after the restart')) - back;
  const exited = servers.filter((p) => p !== victim && p.child.exitCode !== null).length;
  console.log(
    `worker_recovery_restart database back → has_pdf ${s(afterRestart)} (ratio to normal ${(afterRestart / normal).toFixed(2)}; processes that exited: ` +
      `${exited}; before this change: not within 120 s)`,
  );
  await client.end();
} finally {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGTERM');
  for (const server of servers) await server.exited;
  await db.stop();
  rmSync(dir, { recursive: true, force: true });
}
