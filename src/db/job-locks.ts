// The job queue's own rows, beside graphile-worker's: the workers' heartbeat rows and the locks
// of jobs that a dead worker, or a completion that never reached the database, left behind
// (workers/liveness.ts and workers/index.ts decide when). Each runs on the job runner's pool.
import type pg from 'pg';

/** `$2` seconds before the database's now. */
const SECONDS_AGO = `now() - make_interval(secs => $2)`;

// A worker's row is stale when it has not checked in for the stale interval; after a database
// restart every worker gets that interval again, counted from the restart.
const SWEEP = `
with stale as (
  delete from worker_heartbeats
  where pool_id <> $1 and greatest(seen_at, pg_postmaster_start_time()) < ${SECONDS_AGO}
  returning pool_id, hostname, pid, round(extract(epoch from now() - seen_at))::int as silent
), locked_long as (
  select locked_by as pool_id from graphile_worker._private_jobs where locked_by is not null and locked_at < ${SECONDS_AGO}
  union
  select locked_by from graphile_worker._private_job_queues where locked_by is not null and locked_at < ${SECONDS_AGO}
), dead as (
  select pool_id, hostname, pid, silent from stale
  union all
  select pool_id, null, null, null from locked_long l where not exists (select 1 from worker_heartbeats h where h.pool_id = l.pool_id)
)
select d.pool_id, d.hostname, d.pid, d.silent,
  (select count(*)::int from graphile_worker._private_jobs j where j.locked_by = d.pool_id) as jobs
from dead d`;

const OWN_LOCKS = `
select j.id::text as id, t.identifier as task, j.locked_at < ${SECONDS_AGO} as old_lock
from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
where j.locked_by = $1`;

// As graphile-worker's own completeJob and failJob do (including the named queue's lock); a job
// no longer locked by this pool (its result did arrive, or another worker has it) is left alone.
const COMPLETE = `
with j as (delete from graphile_worker._private_jobs where id = $1 and locked_by = $2 returning job_queue_id)
update graphile_worker._private_job_queues q set locked_by = null, locked_at = null from j where q.id = j.job_queue_id and q.locked_by = $2`;
const RELEASE = `
with j as (
  update graphile_worker._private_jobs set locked_by = null, locked_at = null,
    last_error = coalesce($3::text, last_error),
    run_at = case when $3::text is null then run_at else greatest(now(), run_at) + exp(least(attempts, 10)) * interval '1 second' end
  where id = $1 and locked_by = $2 returning job_queue_id
)
update graphile_worker._private_job_queues q set locked_by = null, locked_at = null from j where q.id = j.job_queue_id and q.locked_by = $2`;

export interface DeadWorker {
  pool_id: string;
  hostname: string | null;
  pid: number | null;
  silent: number | null;
  jobs: number;
}

/** This pool's heartbeat row, written or refreshed; `inserted` when it had to be written anew. */
export async function writeHeartbeat(
  pool: pg.Pool,
  worker: { poolId: string; hostname: string; pid: number; startedAt: Date | null },
): Promise<{ started_at: Date; inserted: boolean }> {
  const { rows } = await pool.query<{ started_at: Date; inserted: boolean }>(
    `insert into worker_heartbeats (pool_id, hostname, pid, started_at, seen_at) values ($1, $2, $3, coalesce($4, now()), now())
     on conflict (pool_id) do update set seen_at = now()
     returning started_at, (xmax = 0) as inserted`,
    [worker.poolId, worker.hostname, worker.pid, worker.startedAt],
  );
  return rows[0];
}

export async function removeHeartbeat(pool: pg.Pool, poolId: string): Promise<void> {
  await pool.query('delete from worker_heartbeats where pool_id = $1', [poolId]);
}

/** The jobs `poolId` holds; `old_lock` when locked longer than `seconds`. */
export async function heldJobs(pool: pg.Pool, poolId: string, seconds: number): Promise<{ id: string; task: string; old_lock: boolean }[]> {
  const { rows } = await pool.query<{ id: string; task: string; old_lock: boolean }>(OWN_LOCKS, [poolId, seconds]);
  return rows;
}

/** Records a held job's completion that graphile-worker could not write. */
export async function completeHeldJob(pool: pg.Pool, id: string, poolId: string): Promise<void> {
  await pool.query(COMPLETE, [id, poolId]);
}

/** Frees a held job, recording `error` (then with graphile-worker's backoff) when it failed. */
export async function releaseHeldJob(pool: pg.Pool, id: string, poolId: string, error: string | null): Promise<void> {
  await pool.query(RELEASE, [id, poolId, error]);
}

/** Frees the jobs of workers presumed dead, in one transaction with the removal of their rows; those workers. */
export async function sweepDeadWorkers(pool: pg.Pool, poolId: string, staleSeconds: number): Promise<DeadWorker[]> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows: dead } = await client.query<DeadWorker>(SWEEP, [poolId, staleSeconds]);
    if (dead.length) await client.query('select graphile_worker.force_unlock_workers($1::text[])', [dead.map((d) => d.pool_id)]);
    await client.query('commit');
    client.release();
    return dead;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    client.release(error as Error);
    throw error;
  }
}

/**
 * Every lock and heartbeat row, cleared: only for a process whose database nobody else uses (the
 * embedded one), where all of them are left over from a dead run. The jobs released.
 */
export async function releaseAbandonedJobs(pool: pg.Pool): Promise<number> {
  const released = await pool.query('update graphile_worker._private_jobs set locked_at = null, locked_by = null where locked_at is not null');
  await pool.query('update graphile_worker._private_job_queues set locked_at = null, locked_by = null where locked_at is not null');
  await pool.query('delete from worker_heartbeats');
  return released.rowCount ?? 0;
}

/** How many jobs these worker pools still hold. */
export async function countHeldJobs(pool: pg.Pool, poolIds: string[]): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('select count(*)::int as n from graphile_worker._private_jobs where locked_by = any($1)', [poolIds]);
  return rows[0].n;
}

/** Frees whatever jobs these worker pools still hold, so another worker takes them at once. */
export async function releaseJobsOf(pool: pg.Pool, poolIds: string[]): Promise<void> {
  await pool.query('update graphile_worker._private_jobs set locked_at = null, locked_by = null where locked_by = any($1)', [poolIds]);
}
