// One row of graphile-worker's queue as an Admin sees it, read in one query from graphile-worker's
// own `jobs` view joined with the workers' heartbeats (workers/liveness.ts), never a query per job.
import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { toTimestamp } from '../../../domain/dates.ts';

export const JOB_STATES = ['failed', 'stuck', 'running', 'waiting'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const jobOut = z.object({
  id: z.number().int(),
  task_identifier: z.string(),
  queue_name: z.string().nullable(),
  key: z.string().nullable(),
  state: z.enum(JOB_STATES),
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  last_error: z.string().nullable(),
  run_at: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  locked_by: z.string().nullable(),
  locked_at: z.string().nullable(),
  /** Null when the job is not locked; true when the locking worker is presumed dead. */
  locked_by_dead: z.boolean().nullable(),
  /** The locking worker's host and process id, from its heartbeat row (null when it has none). */
  locked_by_hostname: z.string().nullable(),
  locked_by_pid: z.number().int().nullable(),
});
export type JobOut = z.infer<typeof jobOut>;

// A locking worker is dead by the rule the heartbeat sweep applies: its row has been silent for the
// stale interval (counted from PostgreSQL's start at the earliest), or it has no row and its lock
// is older than that interval.
function dead(staleSeconds: number): RawBuilder<boolean> {
  const staleSince = sql`now() - make_interval(secs => ${staleSeconds})`;
  return sql`case when h.pool_id is not null
    then greatest(h.seen_at, pg_postmaster_start_time()) < ${staleSince}
    else j.locked_at < ${staleSince} end`;
}

// graphile-worker runs a job while it is unlocked and has attempts left; one with none left is
// failed for good (permanently_fail_jobs sets attempts to max_attempts too).
function state(staleSeconds: number): RawBuilder<JobState> {
  return sql`case
    when j.locked_at is not null then case when ${dead(staleSeconds)} then 'stuck' else 'running' end
    when j.attempts >= j.max_attempts then 'failed'
    else 'waiting' end`;
}

/** The jobs that `where` (over the columns below) selects, newest first, in one query. */
function jobsQuery(where: RawBuilder<boolean>, staleSeconds: number, limit?: number): RawBuilder<JobRow> {
  return sql<JobRow>`
select * from (
  select j.id::text as id, j.task_identifier, j.queue_name, j.key, ${state(staleSeconds)} as state,
    j.attempts, j.max_attempts, j.last_error, j.run_at, j.created_at, j.updated_at, j.locked_by, j.locked_at,
    case when j.locked_at is null then null else ${dead(staleSeconds)} end as locked_by_dead,
    h.hostname as locked_by_hostname, h.pid as locked_by_pid
  from graphile_worker.jobs j
  left join worker_heartbeats h on h.pool_id = j.locked_by
) rows
where ${where}
order by id::bigint desc
${limit === undefined ? sql`` : sql`limit ${limit}`}`;
}

export interface JobRow {
  id: string;
  task_identifier: string;
  queue_name: string | null;
  key: string | null;
  state: JobState;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  run_at: string | Date;
  created_at: string | Date;
  updated_at: string | Date;
  locked_by: string | null;
  locked_at: string | Date | null;
  locked_by_dead: boolean | null;
  locked_by_hostname: string | null;
  locked_by_pid: number | null;
}

const time = (value: string | Date) => toTimestamp(new Date(value));

export function toJob(row: JobRow): JobOut {
  return {
    ...row,
    id: Number(row.id),
    run_at: time(row.run_at),
    created_at: time(row.created_at),
    updated_at: time(row.updated_at),
    locked_at: row.locked_at === null ? null : time(row.locked_at),
  };
}

export async function selectJobs(em: Em, where: RawBuilder<boolean>, staleSeconds: number, limit?: number): Promise<JobOut[]> {
  const { rows } = await jobsQuery(where, staleSeconds, limit).execute(db(em));
  return rows.map(toJob);
}
