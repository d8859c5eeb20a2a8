// The process's Prometheus metrics (served at GET /metrics: src/metrics/route.ts; the list and its
// labels: docs/operating/metrics.md). One registry per process, made with the services, so that the
// API's requests and the worker's jobs of a SERVICE_ROLE=all process land in the same one.
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export interface Metrics {
  registry: Registry;
  /** Every HTTP request, by method, route pattern (never the raw URL) and status class. */
  httpDuration: Histogram<'method' | 'route' | 'status_class'>;
  /** Every job this process ran, by task and outcome (`success` or `failure`). */
  jobDuration: Histogram<'task' | 'outcome'>;
  /** Scrapes in which a collector failed and its metrics were left out. */
  collectorFailures: Counter<'collector'>;
  /** Where a failing collector is reported. */
  log: (message: string) => void;
  /** The process's database pools by name (`requests`, `jobs`), read at scrape time (src/metrics/pools.ts). */
  databasePools: Map<string, () => pg.Pool | undefined>;
  /**
   * Scrape-time collections that may fail (the queue query), run before the registry is read so
   * that a failure is counted in the same scrape; each catches its own failure (collectOrSkip).
   */
  refreshers: (() => Promise<void>)[];
  /** The metrics in Prometheus' text format, after the refreshers. */
  scrape(): Promise<string>;
  /** Things collectors hold (the queue query's connection); `close` ends them. */
  closers: (() => Promise<void>)[];
  close(): Promise<void>;
}

/** `log` hears failing collectors (the service's logger, at warn). */
export function createMetrics(log: (message: string) => void): Metrics {
  const registry = new Registry();
  // Process memory, CPU, handles and event-loop lag (nodejs_eventloop_lag_seconds and the
  // nodejs_eventloop_lag_p99_seconds of perf_hooks' delay histogram), as prom-client names them.
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status class (2xx, 4xx, ...), and how long they took',
      labelNames: ['method', 'route', 'status_class'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    jobDuration: new Histogram({
      name: 'job_duration_seconds',
      help: 'Jobs this process ran, by task and outcome (success, failure), and how long they took',
      labelNames: ['task', 'outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
      registers: [registry],
    }),
    collectorFailures: new Counter({
      name: 'metrics_collector_failures_total',
      help: 'Scrapes in which a collector failed; its metrics were left out of that scrape',
      labelNames: ['collector'],
      registers: [registry],
    }),
    log,
    databasePools: new Map(),
    refreshers: [],
    async scrape() {
      await Promise.all(this.refreshers.map((refresh) => refresh()));
      return registry.metrics();
    },
    closers: [],
    async close() {
      await Promise.all(this.closers.splice(0).map((close) => close()));
    },
  };
}

/**
 * Runs a gauge's scrape-time collection; a failure leaves the gauge empty for this scrape (its
 * series are absent rather than stale), is counted and logged, and never fails the scrape.
 */
export async function collectOrSkip(metrics: Metrics, collector: string, reset: () => void, collect: () => Promise<void> | void): Promise<void> {
  try {
    await collect();
  } catch (error) {
    reset();
    metrics.collectorFailures.inc({ collector });
    metrics.log(`[metrics] the ${collector} collector failed and was skipped: ${(error as Error).message.split('\n')[0]}`);
  }
}
