import type { Task } from 'graphile-worker';
import { sql } from 'kysely';
import { z } from 'zod';
import { db } from '../../src/db/kysely.ts';
import { jobQueue } from '../../src/db/jobs.ts';
import type { WorkerServices } from '../index.ts';

/** How often the crontab runs this item (workers/index.ts): each run looks back this far. */
export const CODE_SIMILARITY_INTERVAL_MS = 24 * 3600_000;

const payload = z.object({ _cron: z.object({ ts: z.string() }).partial().optional() }).loose();

/**
 * The daily cron item: queues `code_similarity` for each task definition whose target date has
 * passed (the end of that day anywhere on earth) and which has code handed in since the
 * previous run, or whose target date passed since then. "Since the previous run" is the day
 * before the scheduled time graphile-worker gives the item; with the crontab's backfill, runs
 * missed while no worker was up are made up, so no state of our own is kept. A definition
 * already queued is queued once (job key).
 */
export function codeSimilarityDueTask(services: WorkerServices): Task {
  return async (raw) => {
    const ts = payload.parse(raw ?? {})._cron?.ts;
    const until = ts ? new Date(ts) : services.clock.now();
    const since = new Date(until.getTime() - CODE_SIMILARITY_INTERVAL_MS);
    const em = services.orm.em.fork();
    await em.transactional(async (tx) => {
      // The target day ends at 11:59:59 UTC the next day (as endOfDayAnywhereOnEarth).
      const ends = sql<Date>`((d.target_date + 1)::timestamp + interval '12 hours') at time zone 'UTC'`;
      const due = await db(tx)
        .selectFrom('task_definitions as d')
        .select('d.id')
        .where(sql<boolean>`${ends} <= ${until.toISOString()}::timestamptz`)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('tasks as t')
              .innerJoin('task_submissions as s', 's.task_id', 't.id')
              .innerJoin('submission_files as f', 'f.submission_id', 's.id')
              .select(sql`1`.as('one'))
              .whereRef('t.task_definition_id', '=', 'd.id')
              .where('f.kind', '=', 'code')
              .where(sql<boolean>`(s.submitted_at >= ${since.toISOString()}::timestamptz or ${ends} > ${since.toISOString()}::timestamptz)`),
          ),
        )
        .orderBy('d.id')
        .execute();
      const jobs = jobQueue(tx);
      for (const { id } of due) await jobs.add('code_similarity', { taskDefinitionId: id }, { jobKey: `code_similarity:${id}` });
    });
  };
}
