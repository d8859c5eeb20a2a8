// Nothing stays locked by a worker that cannot finish it. graphile-worker gives a job locked by a
// dead worker to another only after 4 hours, and a job whose result could not be written (the
// database went away as it ended) stays locked by its live worker just as long. So each worker
// process, every WORKER_HEARTBEAT_SECONDS, on its own job pool:
//   1. refreshes its row in `worker_heartbeats` (the view of live workers);
//   2. settles its own jobs that it no longer runs but still holds: it records the completion or
//      failure graphile-worker could not write, or frees a job whose fetch reply was lost;
//   3. frees the jobs of workers silent for WORKER_STALE_SECONDS (their rows are deleted), and
//      jobs locked for that long by a pool without any row, with graphile-worker's own
//      `force_unlock_workers` (which frees their named-queue locks too).
// Staleness is judged by the database's clock only. graphile-worker locks jobs with its worker
// *pool* id (one pool per process), not the ids of the pool's concurrent workers, so the row is
// keyed by the pool id. The statements are in src/db/job-locks.ts.
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import type { WorkerEvents } from 'graphile-worker';
import { completeHeldJob, heldJobs, releaseHeldJob, removeHeartbeat, sweepDeadWorkers, writeHeartbeat } from '../src/db/job-locks.ts';
import type { Logger } from '../src/lib/logger.ts';

export interface LivenessSettings {
  heartbeatSeconds: number;
  staleSeconds: number;
}

export interface Liveness {
  /** Stops the heartbeat and removes this worker's row (a clean stop: nobody needs to sweep it). */
  stop(): Promise<void>;
}

type Outcome = { ok: true } | { ok: false; message: string };

/**
 * Which jobs this process runs, and how the ones it finished ended, from graphile-worker's events.
 * `job:complete` fires as soon as graphile-worker *sends* the completion, without waiting for it.
 */
export function trackJobs(events: WorkerEvents) {
  const running = new Set<string>();
  const finished = new Map<string, Outcome & { at: number }>();
  events.on('job:start', ({ job }) => running.add(job.id));
  events.on('job:complete', ({ job, error }) => {
    running.delete(job.id);
    const outcome: Outcome = error ? { ok: false, message: error instanceof Error ? error.message : String(error) } : { ok: true };
    finished.set(job.id, { ...outcome, at: performance.now() });
  });
  return { running, finished };
}
export type JobTracker = ReturnType<typeof trackJobs>;

/** Starts the heartbeat of the worker pool `poolId`; resolves once its row is written (or the first attempt failed). */
export async function startLiveness(pool: pg.Pool, poolId: string, jobs: JobTracker, settings: LivenessSettings, logger: Logger): Promise<Liveness> {
  const host = hostname();
  const log = (message: string) => logger.info(message);
  const complain = (message: string) => logger.warn(message);
  let startedAt: Date | undefined;
  /** Since when (this process's monotonic clock) every heartbeat has reached the database. */
  let connectedSince: number | undefined;
  let failing = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> = Promise.resolve();

  async function beat(): Promise<boolean> {
    try {
      const row = await writeHeartbeat(pool, { poolId, hostname: host, pid: process.pid, startedAt: startedAt ?? null });
      if (startedAt && row.inserted) {
        complain(
          `this worker's heartbeat row had been removed: another worker presumed it dead while it could not reach the database, ` +
            `and may be running the jobs it held`,
        );
      }
      startedAt = row.started_at;
      if (failing) log('the database is reachable again; heartbeat resumed');
      failing = false;
      connectedSince ??= performance.now();
      return true;
    } catch (error) {
      if (!failing)
        complain(`heartbeat failed (${(error as Error).message}); other workers take this worker's jobs if it stays silent for ${settings.staleSeconds} s`);
      failing = true;
      connectedSince = undefined;
      return false;
    }
  }

  /** Jobs this pool still holds but is not running: their outcome is written now, or they are freed. */
  async function settleOwnJobs(): Promise<void> {
    const rows = await heldJobs(pool, poolId, settings.heartbeatSeconds);
    const held = new Set(rows.map((r) => r.id));
    for (const id of jobs.finished.keys()) if (!held.has(id)) jobs.finished.delete(id); // its result arrived
    for (const { id, task, old_lock } of rows) {
      if (jobs.running.has(id)) continue;
      const done = jobs.finished.get(id);
      // A completion just sent may still be on its way; one never started may be a fetch whose reply is still coming.
      if (done ? performance.now() - done.at < settings.heartbeatSeconds * 1000 : !old_lock) continue;
      if (done?.ok) {
        await completeHeldJob(pool, id, poolId);
        log(`job ${id} (${task}) succeeded but its completion could not be written; recorded it now`);
      } else if (done) {
        await releaseHeldJob(pool, id, poolId, done.message);
        log(`job ${id} (${task}) failed (${done.message}) and the failure could not be written; released it to be retried`);
      } else {
        await releaseHeldJob(pool, id, poolId, null);
        log(`job ${id} (${task}) was locked for this worker but never reached it; released it`);
      }
      jobs.finished.delete(id);
    }
  }

  /** Frees the jobs of workers presumed dead, in one transaction with the removal of their rows. */
  async function sweep(): Promise<void> {
    const dead = await sweepDeadWorkers(pool, poolId, settings.staleSeconds);
    for (const d of dead) {
      const who = d.pid === null ? `${d.pool_id}, which has no heartbeat row,` : `${d.pool_id} (pid ${d.pid} on ${d.hostname}), silent for ${d.silent} s,`;
      log(`worker ${who} is presumed dead; ${d.jobs ? `released its ${d.jobs} job(s) to the other workers` : 'it held no jobs'}`);
    }
  }

  async function tick(): Promise<void> {
    if (!(await beat())) return;
    try {
      await settleOwnJobs();
      // Only a worker that has itself reached the database for a whole stale interval may judge
      // others silent: after an outage every worker needs that long to check in again.
      if (connectedSince !== undefined && performance.now() - connectedSince >= settings.staleSeconds * 1000) await sweep();
    } catch (error) {
      complain(`could not check for stuck jobs: ${(error as Error).message}`);
    }
  }

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      ticking = tick().finally(schedule);
    }, settings.heartbeatSeconds * 1000);
    timer.unref();
  };

  ticking = tick();
  await ticking;
  log(
    `heartbeat every ${settings.heartbeatSeconds} s as ${poolId} (pid ${process.pid} on ${host}); ` +
      `a worker silent for ${settings.staleSeconds} s is presumed dead and its jobs go to the others`,
  );
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await ticking.catch(() => {});
      await removeHeartbeat(pool, poolId).catch((error: Error) => complain(`could not remove this worker's heartbeat row: ${error.message}`));
    },
  };
}
