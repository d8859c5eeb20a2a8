// Queue depth from graphile-worker's tables, read at scrape time with one short query on a
// connection of its own (never the requests' pool, so a scrape neither waits behind requests nor
// takes a turn from them). Every API and worker process reports the same shared queue: aggregate
// with max(), not sum().
import pg from 'pg';
import { Gauge } from 'prom-client';
import { collectOrSkip, type Metrics } from './registry.ts';

/** A scrape's query may take this long (statement, and connecting) before the collector is skipped. */
const QUERY_TIMEOUT_MS = 2_000;

// States, per task:
//   waiting: can run now; scheduled: to run later (run_at ahead, e.g. a retry's back-off);
//   locked: a worker holds it; locked_by_dead_worker: held by a worker the heartbeat sweep
//   (workers/liveness.ts) counts as dead, by the same rule: its row silent for WORKER_STALE_SECONDS
//   (counted from PostgreSQL's start at the earliest), or no row and a lock at least that old;
//   failed: out of attempts, kept for an Admin to look at.
const DEPTH = `
select t.identifier as task,
  count(*) filter (where j.locked_at is null and j.attempts < j.max_attempts and j.run_at <= now())::int as waiting,
  count(*) filter (where j.locked_at is null and j.attempts < j.max_attempts and j.run_at > now())::int as scheduled,
  count(*) filter (where j.locked_at is not null)::int as locked,
  count(*) filter (where j.locked_at is not null and (
    (h.pool_id is null and j.locked_at < now() - make_interval(secs => $1))
    or (h.pool_id is not null and greatest(h.seen_at, pg_postmaster_start_time()) < now() - make_interval(secs => $1))))::int as locked_by_dead_worker,
  count(*) filter (where j.locked_at is null and j.attempts >= j.max_attempts)::int as failed
from graphile_worker._private_jobs j
join graphile_worker._private_tasks t on t.id = j.task_id
left join worker_heartbeats h on h.pool_id = j.locked_by
group by t.identifier`;

const STATES = ['waiting', 'scheduled', 'locked', 'locked_by_dead_worker', 'failed'] as const;
type Row = { task: string } & Record<(typeof STATES)[number], number>;

/** Adds `job_queue_jobs`; `metrics.close()` closes its connection. */
export function observeQueue(metrics: Metrics, databaseUrl: string, staleSeconds: number): void {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 1,
    connectionTimeoutMillis: QUERY_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    statement_timeout: QUERY_TIMEOUT_MS,
    // Kept between scrapes (Prometheus scrapes every 15-60 s), and never what keeps the process running.
    idleTimeoutMillis: 120_000,
    allowExitOnIdle: true,
  });
  pool.on('error', () => {}); // a dropped idle connection: the next scrape reconnects
  const gauge = new Gauge({
    name: 'job_queue_jobs',
    help: 'Jobs in the shared queue by task and state (waiting, scheduled, locked, locked_by_dead_worker, failed); the same in every process',
    labelNames: ['task', 'state'],
    registers: [metrics.registry],
  });
  metrics.refreshers.push(() =>
    collectOrSkip(
      metrics,
      'job_queue',
      () => gauge.reset(),
      async () => {
        const { rows } = await pool.query<Row>(DEPTH, [staleSeconds]);
        // Tasks whose jobs are all gone drop out, rather than staying at their last count.
        gauge.reset();
        for (const row of rows) for (const state of STATES) gauge.set({ task: row.task, state }, row[state]);
      },
    ),
  );
  metrics.closers.push(() => pool.end());
}
