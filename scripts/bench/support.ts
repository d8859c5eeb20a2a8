// Shared pieces of the benchmarks: a throw-away database, a keep-alive HTTP load generator,
// and interleaved rounds, each pairing the service with a baseline measured next to it; the
// median of the rounds' ratios, with its quartiles, is the result. Benchmarks report ratios,
// never pass/fail on a number.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import pg from 'pg';
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
 * share the cores, and for a whole `npm run bench` under two minutes. Many short rounds beat a
 * few long ones: a round's ratio pairs a service window with the baseline window next to it,
 * so drift (other processes, CPU frequency, page cache) cancels, and the median of many pairs
 * is steady where one pair is not. Override with BENCH_CONCURRENCY, BENCH_WARMUP_MS,
 * BENCH_DURATION_MS, BENCH_ROUNDS.
 */
export const benchSettings = {
  concurrency: envInt('BENCH_CONCURRENCY', 16),
  warmupMs: envInt('BENCH_WARMUP_MS', 100),
  durationMs: envInt('BENCH_DURATION_MS', 500),
  rounds: envInt('BENCH_ROUNDS', 15),
};

export interface BenchDatabase {
  url: string;
  stop(): Promise<void>;
}

/** A fresh embedded PostgreSQL in a temporary directory, migrated to the current schema. */
export async function startDatabase(): Promise<BenchDatabase> {
  const db = await startEmbeddedPostgres(mkdtempSync(join(tmpdir(), 'course-bench-')), { persistent: false, log: (message) => console.error(message) });
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

export type Target = Partial<LoadOptions> & { url: string };

/**
 * One load-generator thread for the whole benchmark (see loadgen.worker.ts). `rps` keeps
 * `concurrency` keep-alive requests in flight against a URL for `warmupMs` + `durationMs` and
 * returns the completed requests per second of the measured part. Any non-200 answer makes
 * the measurement meaningless, so it throws.
 */
export class LoadGenerator {
  private readonly worker = new Worker(new URL('./loadgen.worker.ts', import.meta.url));
  private failure: Error | undefined;

  constructor() {
    this.worker.on('error', (error) => (this.failure = error));
  }

  async rps(target: Target): Promise<number> {
    if (this.failure) throw this.failure;
    const options: LoadOptions = {
      concurrency: benchSettings.concurrency,
      warmupMs: benchSettings.warmupMs,
      durationMs: benchSettings.durationMs,
      ...target,
    };
    const result = await new Promise<LoadResult>((done, fail) => {
      const onExit = (code: number) => fail(this.failure ?? new Error(`load generator exited with ${code} before reporting`));
      this.worker.once('exit', onExit);
      this.worker.once('message', (message: LoadResult) => {
        this.worker.off('exit', onExit);
        done(message);
      });
      this.worker.postMessage(options);
    });
    if (result.failed > 0) throw new Error(`${target.url}: ${result.failed} of the requests failed (first: ${result.firstFailure})`);
    return result.rps;
  }

  async close(): Promise<void> {
    this.worker.postMessage('close');
    await new Promise((done) => this.worker.once('exit', done));
  }
}

/** The value below which a fraction `q` of `values` lies, interpolating between neighbours. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

export const median = (values: number[]): number => quantile(values, 0.5);

/** A route of the service measured against a bare route doing the same database work. */
export interface Comparison {
  name: string;
  service: Target;
  baseline: Target;
}

export interface ComparisonResult {
  name: string;
  /** Service rps / baseline rps of each round, in round order. */
  ratios: number[];
  service: number[];
  baseline: number[];
}

/**
 * Measures each comparison `rounds` times. A round is four half-length windows in ABBA order
 * (service, baseline, baseline, service; BAAB on odd rounds), and its ratio is the service's
 * two windows over the baseline's two: a load that rises or falls during the round weighs on
 * both alike, and neither side always gets the warmer or the quieter slot. The comparisons'
 * order rotates from round to round. Before the first round each target runs once unmeasured,
 * to warm the JIT and the pools.
 */
export async function compare(load: Pick<LoadGenerator, 'rps'>, comparisons: Comparison[], rounds = benchSettings.rounds): Promise<ComparisonResult[]> {
  for (const c of comparisons) {
    await load.rps(c.service);
    await load.rps(c.baseline);
  }
  const half = (t: Target): Target => ({ ...t, durationMs: Math.round((t.durationMs ?? benchSettings.durationMs) / 2) });
  const results = comparisons.map((c) => ({ name: c.name, ratios: [] as number[], service: [] as number[], baseline: [] as number[] }));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < comparisons.length; i++) {
      const index = (i + round) % comparisons.length;
      const c = comparisons[index]!;
      const [first, second] = round % 2 === 0 ? [half(c.service), half(c.baseline)] : [half(c.baseline), half(c.service)];
      const a1 = await load.rps(first);
      const b1 = await load.rps(second);
      const b2 = await load.rps(second);
      const a2 = await load.rps(first);
      const [service, baseline] = round % 2 === 0 ? [(a1 + a2) / 2, (b1 + b2) / 2] : [(b1 + b2) / 2, (a1 + a2) / 2];
      const result = results[index]!;
      result.service.push(service);
      result.baseline.push(baseline);
      result.ratios.push(service / baseline);
    }
  }
  return results;
}

/**
 * The summary line `run.ts` callers read: `<name> ratio <median> (p25 <q1>, p75 <q3>, n=<rounds>)`,
 * then the rates behind it.
 */
export function report(result: ComparisonResult): string {
  const r = (x: number) => x.toFixed(2);
  return (
    `${result.name} ratio ${r(median(result.ratios))} (p25 ${r(quantile(result.ratios, 0.25))}, p75 ${r(quantile(result.ratios, 0.75))}, ` +
    `n=${result.ratios.length})` +
    `\n  rps median service ${fmt(median(result.service))}, baseline ${fmt(median(result.baseline))}; ` +
    `ratio range ${r(Math.min(...result.ratios))}-${r(Math.max(...result.ratios))}`
  );
}

export const fmt = (rps: number): string => rps.toFixed(0);

/** Throws unless the service and its baseline answer the same JSON: otherwise the ratio compares different work. */
export async function assertSameAnswer(service: Target, baseline: Target): Promise<void> {
  const answer = async (t: Target) => {
    const res = await fetch(t.url, { headers: t.headers });
    if (res.status !== 200) throw new Error(`GET ${t.url} answered ${res.status}: ${await res.text()}`);
    return res.text();
  };
  const [a, b] = await Promise.all([answer(service), answer(baseline)]);
  if (a !== b) throw new Error(`service and baseline disagree:\n${a.slice(0, 500)}\n${b.slice(0, 500)}`);
}

// MikroORM's driver may bring its own copy of pg; every copy in use is watched.
const ormRequire = createRequire(createRequire(import.meta.url).resolve('@mikro-orm/postgresql'));
const pgClients = [...new Set([pg.Client, (ormRequire('pg') as typeof pg).Client])];

/** Counts the statements sent while `fn` runs (the service runs in the bench's process). */
export async function statementsOf(fn: () => Promise<unknown>): Promise<number> {
  let statements = 0;
  const restore = pgClients.map((Client) => {
    const proto = Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
    const original = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      statements++;
      return original.apply(this, args);
    };
    return () => (proto.query = original);
  });
  try {
    await fn();
  } finally {
    for (const r of restore) r();
  }
  return statements;
}
