// A flood of task-inbox requests on a healthy database (issue 14 §3): 200 authenticated
// `GET /api/units/{id}/tasks/inbox` at once, by the convenor and the tutors of a demo unit of 300
// students (scripts/demo/seed.ts: 30 handed-in tasks each with 3 comments, so every inbox lists
// all 9,000 tasks), against the real service process (SERVICE_ROLE=api, its own pool).
//
// Printed: the flood's p50 and p99, how many answers were 503 and how many any other 5xx or a
// socket error, and what `/api/ready` answered while the flood lasted (polled every 250 ms).
// The baseline, measured in the same run, is the same request sent one at a time: the flood's
// wall time against 200 times one request's p50 says how well the flood was queued (1.0 = as if
// served one after another; 0.5 = both cores busy the whole time). BENCH_FLOOD_POOL_SIZES (10)
// lists DATABASE_POOL_SIZE values to compare, each in a fresh service process;
// BENCH_FLOOD_ROUNDS (2), BENCH_FLOOD_REQUESTS (200), BENCH_FLOOD_STUDENTS (300) and
// BENCH_FLOOD_SAMPLES (20) tune it, and other DATABASE_* variables pass through to the service.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { User } from '../../schema/index.ts';
import { DEFAULT_POOL_SIZE, loadConfig } from '../../src/config.ts';
import { createOrm } from '../../src/db/orm.ts';
import { ensureAdmin } from '../../src/operations/users/ensure-admin.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { issueToken } from '../../src/operations/auth/session-tokens.ts';
import { createServices } from '../../src/trpc/context.ts';
import { startServer, type ServerProcess } from '../../test/support/server-process.ts';
import { DEFAULT_OPTIONS } from '../demo/options.ts';
import { seedDemo } from '../demo/seed.ts';
import { quantile, startDatabase, stopDatabase } from './support.ts';

const STUDENTS = Number(process.env.BENCH_FLOOD_STUDENTS || 300);
const REQUESTS = Number(process.env.BENCH_FLOOD_REQUESTS || 200);
const ROUNDS = Number(process.env.BENCH_FLOOD_ROUNDS || 2);
// Pool sizes to measure (DATABASE_POOL_SIZE of the service process), each in a service of its own.
const POOL_SIZES = (process.env.BENCH_FLOOD_POOL_SIZES || String(DEFAULT_POOL_SIZE)).split(',').map(Number);
const SAMPLES = Number(process.env.BENCH_FLOOD_SAMPLES || 20);

const ms = (n: number) => `${n.toFixed(0)} ms`;
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

async function timed(url: string, headers: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
  return performance.now() - t0;
}

interface FloodResult {
  latency: { p50: number; p99: number; max: number };
  statusCodes: Record<string, number>;
  fiveXx: number;
  errors: number;
  timeouts: number;
}

function flood(url: string, people: Record<string, string>[]): Promise<FloodResult> {
  const worker = new Worker(new URL('./flood.worker.ts', import.meta.url), { workerData: { url, requests: REQUESTS, people } });
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

/** Polls /api/ready until stopped; counts its answers by status (0: no answer within 5 s). */
function pollReadiness(baseUrl: string): { stop(): Promise<{ statuses: Map<number, number>; slowest: number; reasons: Set<string> }> } {
  const statuses = new Map<number, number>();
  const reasons = new Set<string>();
  let slowest = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      const status = await fetch(`${baseUrl}/api/ready`, { signal: AbortSignal.timeout(5_000) }).then(
        async (r) => {
          const text = await r.text();
          if (r.status !== 200) reasons.add(text);
          return r.status;
        },
        () => 0,
      );
      slowest = Math.max(slowest, performance.now() - t0);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      await sleep(250);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { statuses, slowest, reasons };
    },
  };
}

const db = await startDatabase();
const orm = await createOrm(db.url);
let server: ServerProcess | undefined;
try {
  const config = loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'course-bench-flood-')), ADMIN_USERNAME: 'admin' });
  await ensureAdmin(orm, config);
  const started = performance.now();
  const demo = await seedDemo(createServices(orm, config, systemClock), {
    options: { ...DEFAULT_OPTIONS, code: 'FLOOD', students: STUDENTS, signInStudents: 0 },
    adminUsername: 'admin',
    password: 'bench-demo-password',
  });
  console.log(`seeded FLOOD (${STUDENTS} students) in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // The convenor and every tutor, each with a session, as the people who open the inbox.
  const staff: Record<string, string>[] = [];
  for (const username of [demo.convenor, ...demo.tutors]) {
    const user = await orm.em.fork().findOneOrFail(User, { username });
    staff.push({ Username: username, 'Auth-Token': await issueToken(orm.em.fork(), user, systemClock.now(), false), Accept: 'application/json' });
  }

  for (const poolSize of POOL_SIZES) {
    server = await startServer(mkdtempSync(join(tmpdir(), 'course-bench-flood-svc-')), {
      DATABASE_URL: db.url,
      SERVICE_ROLE: 'api',
      DATABASE_POOL_SIZE: String(poolSize),
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('DATABASE_') && !['DATABASE_URL', 'DATABASE_POOL_SIZE'].includes(k))),
    });
    const url = `${server.baseUrl}/api/units/${demo.unit.id}/tasks/inbox`;
    const first = await (await fetch(url, { headers: staff[0] })).text();

    // Baseline: one request at a time, after a few unmeasured ones.
    for (let i = 0; i < 3; i++) await timed(url, staff[i % staff.length]!);
    const single: number[] = [];
    for (let i = 0; i < SAMPLES; i++) single.push(await timed(url, staff[i % staff.length]!));
    const single50 = quantile(single, 0.5);
    console.log(
      `inbox_single (pool ${poolSize}): p50 ${ms(single50)}, p95 ${ms(quantile(single, 0.95))} (one client, ${SAMPLES} requests, ` +
        `${(first.length / 1024).toFixed(0)} kB, ${JSON.parse(first).length} tasks)`,
    );

    for (let round = 1; round <= ROUNDS; round++) {
      const readiness = pollReadiness(server.baseUrl);
      const t0 = performance.now();
      const result = await flood(url, staff);
      const wall = performance.now() - t0;
      const ready = await readiness.stop();
      const n503 = result.statusCodes['503'] ?? 0;
      const readyLine =
        [...ready.statuses].map(([s, n]) => `${n} × ${s || 'no answer'}`).join(', ') + (ready.reasons.size ? ` ${[...ready.reasons].join(' ')}` : '');
      console.log(
        `inbox_flood (pool ${poolSize}) round ${round}: ${REQUESTS} concurrent; p50 ${ms(result.latency.p50)}, p99 ${ms(result.latency.p99)}, ` +
          `max ${ms(result.latency.max)}; ` +
          `503: ${n503}, other 5xx: ${result.fiveXx - n503}, errors: ${result.errors}, timeouts: ${result.timeouts}; ` +
          `status codes ${JSON.stringify(result.statusCodes)}; ` +
          `/api/ready during the flood: ${readyLine} (slowest ${ms(ready.slowest)}); ` +
          `wall ${ms(wall)}, ratio to ${REQUESTS} × one request ${(wall / (REQUESTS * single50)).toFixed(2)}, ` +
          `p50 ratio to one request ${(result.latency.p50 / single50).toFixed(1)}`,
      );
      await sleep(1_000);
    }
    server.child.kill('SIGTERM');
    await server.exited;
  }
} finally {
  if (server && server.child.exitCode === null) server.child.kill('SIGTERM');
  await server?.exited;
  await orm.close();
  await stopDatabase(db);
}
