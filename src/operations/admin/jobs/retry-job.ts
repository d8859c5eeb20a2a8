// PUT /api/admin/jobs/{id}/retry: an Admin sends one job back to the queue, to run at once with all
// its attempts. Only graphile-worker's own functions change its tables: force_unlock_workers frees
// a dead worker's locks (as the heartbeat sweep does) and reschedule_jobs sets run_at and attempts.
import { sql } from 'kysely';
import type { Config } from '../../../config.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { badRequest, notFound } from '../../../lib/errors.ts';
import { type JobOut, selectJobs } from './job-rows.ts';

async function findJob(em: Em, id: number, staleSeconds: number): Promise<JobOut> {
  const [job] = await selectJobs(em, sql`id = ${String(id)}`, staleSeconds);
  if (!job) throw notFound('Unable to find requested Job');
  return job;
}

export async function retryJob(em: Em, config: Pick<Config, 'workerLiveness'>, id: number): Promise<JobOut> {
  const { staleSeconds } = config.workerLiveness;
  const job = await findJob(em, id, staleSeconds);
  // A live worker is running it: rescheduling would run it twice at once.
  if (job.state === 'running') throw badRequest(`Job ${id} is running on a live worker (${job.locked_by}); it cannot be retried`);
  // The worker is dead: every lock it holds is stale, so all of them go, exactly as the sweep would.
  if (job.state === 'stuck') await sql`select graphile_worker.force_unlock_workers(array[${job.locked_by}]::text[])`.execute(db(em));
  // reschedule_jobs leaves a job that is locked (again) alone: a live worker took it in between.
  const { rows } = await sql`select id from graphile_worker.reschedule_jobs(array[${String(id)}]::bigint[], run_at => now(), attempts => 0)`.execute(db(em));
  if (rows.length === 0) throw badRequest(`Job ${id} was taken by a worker meanwhile; it cannot be retried`);
  return findJob(em, id, staleSeconds);
}
