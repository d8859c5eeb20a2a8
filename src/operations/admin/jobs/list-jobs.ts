// GET /api/admin/jobs: what is wrong in the background job queue (docs/operating/admin-jobs.md).
import { sql } from 'kysely';
import type { Config } from '../../../config.ts';
import type { Em } from '../../../db/orm.ts';
import { type JobOut, type JobState, selectJobs } from './job-rows.ts';

/** Without a filter an Admin sees what needs attention: jobs failed for good and jobs of dead workers. */
export const DEFAULT_STATES: readonly JobState[] = ['failed', 'stuck'];

export async function listJobs(em: Em, config: Pick<Config, 'workerLiveness'>, filter: { states?: readonly JobState[]; limit: number }): Promise<JobOut[]> {
  const states = filter.states?.length ? filter.states : DEFAULT_STATES;
  return selectJobs(em, sql`state in (${sql.join([...states])})`, config.workerLiveness.staleSeconds, filter.limit);
}
