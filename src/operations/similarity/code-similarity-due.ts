// Which task definitions' code is compared again (workers/tasks/code-similarity-due.ts, daily).
import { sql } from 'kysely';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { jobQueue } from '../../db/jobs.ts';

/**
 * Queues `code_similarity` for each task definition whose target date has passed by `until` (the
 * end of that day anywhere on earth) and which has code handed in since `since`, or whose target
 * date passed since then. A definition already queued is queued once (job key).
 */
export async function queueDueCodeSimilarity(em: Em, since: Date, until: Date): Promise<void> {
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
    // All in one statement per batch of jobs, however many definitions are due.
    await jobQueue(tx).addMany(
      'code_similarity',
      due.map(({ id }) => ({ payload: { taskDefinitionId: id }, jobKey: `code_similarity:${id}` })),
    );
  });
}
