// Every time a worker takes a graphile-worker job, a trigger records it in a table of the test's
// own: the job, its task, the worker pool that locked it and the connection's application_name
// (tests give each worker process its own PGAPPNAME, so a claim names the process that made it).
// "Taken once" is then counted, not assumed.
import type pg from 'pg';

export interface Claim {
  job_id: string;
  task: string;
  locked_by: string;
  app: string;
}

export async function recordClaims(client: pg.Client): Promise<void> {
  await client.query(`
    create table if not exists public.test_job_claims (job_id bigint, task text, locked_by text, app text, at timestamptz default clock_timestamp());
    create or replace function public.test_record_claim() returns trigger language plpgsql as $$
    begin
      if new.locked_by is not null and new.locked_by is distinct from old.locked_by then
        insert into public.test_job_claims (job_id, task, locked_by, app)
        select new.id, t.identifier, new.locked_by, current_setting('application_name') from graphile_worker._private_tasks t where t.id = new.task_id;
      end if;
      return new;
    end $$;
    drop trigger if exists test_record_claim on graphile_worker._private_jobs;
    create trigger test_record_claim after update on graphile_worker._private_jobs for each row execute function public.test_record_claim();`);
}

export async function dropClaims(client: pg.Client): Promise<void> {
  await client.query(
    'drop trigger if exists test_record_claim on graphile_worker._private_jobs; drop table if exists public.test_job_claims; ' +
      'drop function if exists public.test_record_claim()',
  );
}

/** The claims so far, oldest first (optionally of one task). */
export async function claims(client: pg.Client, task?: string): Promise<Claim[]> {
  const { rows } = await client.query<Claim>(
    'select job_id, task, locked_by, app from public.test_job_claims where $1::text is null or task = $1 order by at',
    [task ?? null],
  );
  return rows;
}
