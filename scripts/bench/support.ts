// Shared pieces of the benchmarks: a throw-away database, a keep-alive HTTP load generator,
// and interleaved rounds whose medians give a ratio against a baseline measured in the same
// run. Benchmarks report ratios, never pass/fail on a number.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrate.ts';

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

/**
 * Defaults sized for a 2-core machine, where the server, the load generator and PostgreSQL
 * share the cores. Override with BENCH_CONCURRENCY, BENCH_WARMUP_MS, BENCH_DURATION_MS,
 * BENCH_ROUNDS (e.g. shorter runs while profiling).
 */
export const benchSettings = {
  concurrency: envInt('BENCH_CONCURRENCY', 16),
  warmupMs: envInt('BENCH_WARMUP_MS', 1000),
  durationMs: envInt('BENCH_DURATION_MS', 2000),
  rounds: envInt('BENCH_ROUNDS', 5),
};

export interface BenchDatabase {
  url: string;
  stop(): Promise<void>;
}

/** A fresh embedded PostgreSQL in a temporary directory, migrated to the current schema. */
export async function startDatabase(): Promise<BenchDatabase> {
  const db = await startEmbeddedPostgres(mkdtempSync(join(tmpdir(), 'course-bench-')), { persistent: false });
  // The migrator announces each migration on stdout; keep the benchmark output to its results.
  const write = process.stdout.write;
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) =>
    String(chunk).includes('[migrator]') ? true : write.call(process.stdout, chunk as string, ...(rest as []))) as typeof write;
  try {
    await migrate(db.url);
  } finally {
    process.stdout.write = write;
  }
  return db;
}

/**
 * Stops the database after the pools were closed. pg's Pool.end() resolves before its clients
 * have finished disconnecting, and a client the server terminates meanwhile raises an 'error'
 * that nobody listens to any more; so wait for them, and ignore that one expected error.
 */
export async function stopDatabase(db: BenchDatabase): Promise<void> {
  await new Promise((done) => setTimeout(done, 200));
  const expected = (error: Error & { code?: string }) => {
    if (error.code !== '57P01') throw error;
  };
  process.on('uncaughtException', expected);
  try {
    await db.stop();
    await new Promise((done) => setTimeout(done, 100));
  } finally {
    process.off('uncaughtException', expected);
  }
}

export interface LoadOptions {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  concurrency: number;
  warmupMs: number;
  durationMs: number;
}

export interface LoadResult {
  rps: number;
  completed: number;
  failed: number;
  firstFailure?: string;
}

/**
 * Keeps `concurrency` keep-alive requests in flight against `url` for `warmupMs` + `durationMs`
 * (on a worker thread) and returns the completed requests per second of the measured part.
 * Any non-200 answer makes the measurement meaningless, so it throws.
 */
export async function measureRps(options: Partial<LoadOptions> & { url: string }): Promise<number> {
  const full: LoadOptions = {
    concurrency: benchSettings.concurrency,
    warmupMs: benchSettings.warmupMs,
    durationMs: benchSettings.durationMs,
    ...options,
  };
  const result = await new Promise<LoadResult>((done, fail) => {
    const worker = new Worker(new URL('./loadgen.worker.ts', import.meta.url), { workerData: full });
    let settled = false;
    worker.once('message', (message: LoadResult) => {
      settled = true;
      done(message);
    });
    worker.once('error', fail);
    worker.once('exit', (code) => {
      if (!settled) fail(new Error(`load generator exited with ${code} before reporting`));
    });
  });
  if (result.failed > 0) {
    throw new Error(`${options.url}: ${result.failed} of the requests failed (first: ${result.firstFailure})`);
  }
  return result.rps;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Runs every measurement once per round, rotating their order each round so none always goes
 * first (or last, on a warmer JIT and page cache), and returns each one's median.
 */
export async function interleave(
  runs: Record<string, () => Promise<number>>,
  rounds = benchSettings.rounds,
): Promise<Record<string, { median: number; samples: number[] }>> {
  const names = Object.keys(runs);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length]!;
      samples[name]!.push(await runs[name]!());
    }
  }
  return Object.fromEntries(names.map((n) => [n, { median: median(samples[n]!), samples: samples[n]! }]));
}

/** The summary line `run.ts` callers read: `<name> ratio <value>`. */
export function ratioLine(name: string, subject: number, baseline: number): string {
  return `${name} ratio ${(subject / baseline).toFixed(2)}`;
}

export const fmt = (rps: number): string => rps.toFixed(0);
