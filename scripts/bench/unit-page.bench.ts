// The unit page: GET /api/units/{id}, GET /api/students?unit_id=, the task inbox and the workload dashboard as the unit's
// convenor, on demo units built by the demo seed (scripts/demo/seed.ts: 10 tutors, 40 tutorials in
// 2 streams, 30 task definitions, every task handed in with 3 comments) with 100 and with 1,000
// students.
//
// The baseline of each read is a bare Fastify route that replays, on a `pg` pool, the very SQL
// statements one request of the service issues (recorded from a real request), grouped as the
// service runs them (statements in flight together are replayed together), and answers the raw
// rows as JSON. The ratio is what the service's own layers (credentials, tRPC, shaping the rows,
// output validation, serialization) cost on top of its database work. Also printed: each read's
// p50 and p95 latency with one client, and the statements one request issues at each size, which
// must not grow with the number of students.
import { createRequire } from 'node:module';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { User } from '../../schema/index.ts';
import { loadConfig } from '../../src/config.ts';
import type { Orm } from '../../src/db/orm.ts';
import { ensureAdmin } from '../../src/operations/users/ensure-admin.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { issueToken } from '../../src/operations/auth/session-tokens.ts';
import { createServices } from '../../src/trpc/context.ts';
import { DEFAULT_OPTIONS } from '../demo/options.ts';
import { seedDemo, type DemoResult } from '../demo/seed.ts';
import { withBench } from './setup.ts';
import { benchSettings, compare, quantile, report, type Target } from './support.ts';

const SIZES = [100, 1000] as const;
// Answers of tens to hundreds of kB: a few requests in flight, and longer windows.
const concurrency = Number(process.env.BENCH_UNIT_CONCURRENCY ?? 4);
const durationMs = Math.max(benchSettings.durationMs, 700);
const LATENCY_SAMPLES = Number(process.env.BENCH_UNIT_SAMPLES ?? 50);

interface Statement {
  text: string;
  values: unknown[] | undefined;
  issuedAt: number;
  doneAt: number;
}

// MikroORM's driver may bring its own copy of pg; every copy in use is watched.
const ormRequire = createRequire(createRequire(import.meta.url).resolve('@mikro-orm/postgresql'));
const clientClasses = [...new Set([pg.Client, (ormRequire('pg') as typeof pg).Client])];

/** Every SQL statement sent to PostgreSQL while `fn` runs, with when it was sent and answered. */
async function recordStatements(fn: () => Promise<unknown>): Promise<Statement[]> {
  const recorded: Statement[] = [];
  const restores = clientClasses.map((Client) => {
    const proto = Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
    const original = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      const [config, values] = args;
      const text = typeof config === 'string' ? config : (config as { text: string }).text;
      const entry: Statement = {
        text,
        values: Array.isArray(values) ? values : (config as { values?: unknown[] })?.values,
        issuedAt: performance.now(),
        doneAt: Infinity,
      };
      recorded.push(entry);
      const result = original.apply(this, args);
      if (result && typeof (result as Promise<unknown>).then === 'function') {
        void (result as Promise<unknown>).then(
          () => (entry.doneAt = performance.now()),
          () => (entry.doneAt = performance.now()),
        );
      } else {
        entry.doneAt = entry.issuedAt;
      }
      return result;
    };
    return () => (proto.query = original);
  });
  try {
    await fn();
  } finally {
    for (const restore of restores) restore();
  }
  return recorded;
}

/** Statements sent while an earlier one was still running go in the same group: they ran side by side. */
function concurrentGroups(statements: Statement[]): Statement[][] {
  const groups: Statement[][] = [];
  let busyUntil = -Infinity;
  for (const s of statements) {
    if (s.issuedAt >= busyUntil || groups.length === 0) groups.push([s]);
    else groups.at(-1)!.push(s);
    busyUntil = Math.max(busyUntil, s.doneAt);
  }
  return groups;
}

async function get(url: string, headers: Record<string, string>): Promise<string> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return text;
}

/** Latency of one request at a time (no load), after a few unmeasured ones. */
async function latency(url: string, headers: Record<string, string>): Promise<{ p50: number; p95: number; bytes: number }> {
  let bytes = 0;
  for (let i = 0; i < 5; i++) bytes = (await get(url, headers)).length;
  const times: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const started = performance.now();
    await get(url, headers);
    times.push(performance.now() - started);
  }
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95), bytes };
}

const demos = new Map<number, DemoResult>();

await withBench(
  async (orm: Orm) => {
    // The database is empty, so this is the Admin that `npm start` would create on first start.
    const config = loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'course-bench-demo-')), ADMIN_USERNAME: 'admin' });
    await ensureAdmin(orm, config);
    const services = createServices(orm, config, systemClock);
    for (const students of SIZES) {
      const started = performance.now();
      const result = await seedDemo(services, {
        options: { ...DEFAULT_OPTIONS, code: `DEMO${students}`, students, signInStudents: 0 },
        adminUsername: 'admin',
        password: 'bench-demo-password',
      });
      console.log(
        `seeded DEMO${students} (${students} students) in ${((performance.now() - started) / 1000).toFixed(1)} s: ${Object.entries(result.timings)
          .map(([k, v]) => `${k} ${v} ms`)
          .join(', ')}`,
      );
      demos.set(students, result);
    }
  },
  async ({ orm, pool, service, bare, listenBare, load }) => {
    // A window must fit several whole answers: the inbox at 1,000 students is 30,000 rows (10 MB).
    const routes: { name: string; path: (unitId: number) => string; windowMs?: number }[] = [
      { name: 'unit_detail', path: (id) => `/api/units/${id}` },
      { name: 'unit_students', path: (id) => `/api/students?unit_id=${id}` },
      // Every task has unread comments for the convenor, so the inbox lists all 30 per student.
      { name: 'unit_inbox', path: (id) => `/api/units/${id}/tasks/inbox`, windowMs: Math.max(durationMs, 4000) },
      // The workload dashboard (issue 18 §5), the convenor's view: every tutor, every definition.
      { name: 'unit_workload', path: (id) => `/api/units/${id}/workload` },
    ];
    const replays = new Map<string, Statement[][]>();
    bare.get<{ Params: { key: string } }>('/replay/:key', async (request) => {
      const groups = replays.get(request.params.key)!;
      const results: unknown[] = [];
      for (const group of groups) {
        const answers = await Promise.all(group.map((s) => pool.query(s.text, s.values)));
        for (const a of answers) results.push(a.rows);
      }
      return results;
    });
    const bareUrl = await listenBare();

    const lines: string[] = [];
    const p50s = new Map<string, number>();
    const counts = new Map<string, number[]>();
    const comparisons = [];
    for (const students of SIZES) {
      const demo = demos.get(students)!;
      // Signed in as the unit's convenor, the person who opens this page most.
      const convenor = await orm.em.fork().findOneOrFail(User, { username: demo.convenor });
      for (const route of routes) {
        const token = await issueToken(orm.em.fork(), convenor, systemClock.now(), false);
        const headers = { Username: demo.convenor, 'Auth-Token': token, Accept: 'application/json' };
        const url = `${service}${route.path(demo.unit.id)}`;
        // A new session's first request also verifies the token; the next ones find it cached.
        const cold = await recordStatements(() => get(url, headers));
        const warm = await recordStatements(() => get(url, headers));
        const key = `${route.name}_${students}`;
        replays.set(key, concurrentGroups(warm));
        counts.set(route.name, [...(counts.get(route.name) ?? []), warm.length]);
        const { p50, p95, bytes } = await latency(url, headers);
        p50s.set(key, p50);
        lines.push(
          `${key}: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (one client, ${LATENCY_SAMPLES} requests, ${(bytes / 1024).toFixed(0)} kB); ` +
            `${warm.length} SQL statements per request in ${concurrentGroups(warm).length} rounds (${cold.length} with the token check)`,
        );
        if (students === SIZES.at(-1)) {
          // Long enough for each client to finish about three requests: a read slower than the
          // window would otherwise complete none in it and print no ratio (NaN).
          const window = Math.max(route.windowMs ?? durationMs, Math.ceil(p50 * concurrency * 3));
          const serviceTarget: Target = { url, headers, concurrency, durationMs: window };
          const baseline: Target = { url: `${bareUrl}/replay/${key}`, concurrency, durationMs: window };
          await get(baseline.url, {});
          comparisons.push({ name: key, service: serviceTarget, baseline });
        }
      }
    }
    for (const line of lines) console.log(line);
    for (const [name, [small, large]] of counts) {
      console.log(
        `${name}: ${small} statements at ${SIZES[0]} students, ${large} at ${SIZES[1]}: ${small === large ? 'the same' : 'NOT THE SAME (a query per row?)'}`,
      );
    }

    // The dashboard against the inbox, both measured above in this run on the same unit: the ratio
    // of their one-client p50s, so the figure does not depend on the machine's speed.
    for (const students of SIZES) {
      const ratio = p50s.get(`unit_workload_${students}`)! / p50s.get(`unit_inbox_${students}`)!;
      console.log(`unit_workload/unit_inbox p50 ratio at ${students} students: ${ratio.toFixed(2)}`);
    }

    const { warmupMs, rounds } = benchSettings;
    console.log(
      `unit page (${SIZES.at(-1)} students): concurrency ${concurrency}; ${rounds} rounds, each ${durationMs} ms ` +
        `(the inbox at least ${Math.max(durationMs, 4000)} ms; a slower read, three of its p50s per client) of service and of baseline in ABBA windows (+${warmupMs} ms warm-up each)`,
    );
    for (const result of await compare(load, comparisons)) console.log(report(result));
  },
);
