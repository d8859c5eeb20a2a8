// Who a task's comments go to and who reads on the staff's behalf (beyond-spec.md §4.6–4.7).
import { sql } from 'kysely';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';

/**
 * The student's tutor for a task: the tutor of the student's tutorial in the definition's stream
 * (or a tutorial without a stream), else the unit's main convenor. One query.
 */
export async function tutorFor(em: Em, projectId: number, taskDefinitionId: number): Promise<number | null> {
  return (await tutorsFor(em, [{ projectId, taskDefinitionId }])).get(tutorKey(projectId, taskDefinitionId)) ?? null;
}

/** The key of a (project, task definition) pair in `tutorsFor`'s answer. */
export const tutorKey = (projectId: number, taskDefinitionId: number): string => `${projectId}:${taskDefinitionId}`;

/** `tutorFor` of many tasks at once, in one query (the daily jobs that act for each student's tutor). */
export async function tutorsFor(em: Em, tasks: readonly { projectId: number; taskDefinitionId: number }[]): Promise<Map<string, number | null>> {
  const found = new Map<string, number | null>();
  if (tasks.length === 0) return found;
  const pairs = sql.join(tasks.map((t) => sql`(${t.projectId}::int, ${t.taskDefinitionId}::int)`));
  const { rows } = await sql<{ project_id: number; task_definition_id: number; user_id: number | null }>`
    select p.id as project_id, d.id as task_definition_id, coalesce(
      (select r.user_id from tutorial_enrolments e
         join tutorials tu on tu.id = e.tutorial_id
         join unit_roles r on r.id = tu.tutor_id
        where e.project_id = p.id
          and (tu.tutorial_stream_id = d.tutorial_stream_id or tu.tutorial_stream_id is null)
        order by (tu.tutorial_stream_id is null), e.id limit 1),
      (select r.user_id from unit_roles r where r.id = u.main_convenor_id)
    ) as user_id
    from (values ${pairs}) as v(project_id, task_definition_id)
    join projects p on p.id = v.project_id
    join units u on u.id = p.unit_id
    join task_definitions d on d.id = v.task_definition_id`.execute(db(em));
  for (const r of rows) found.set(tutorKey(r.project_id, r.task_definition_id), r.user_id);
  return found;
}

/** Every staff member (Tutor or Convenor unit role) of a unit. */
export async function staffOf(em: Em, unitId: number): Promise<number[]> {
  const rows = await db(em).selectFrom('unit_roles').select('user_id').where('unit_id', '=', unitId).execute();
  return rows.map((r) => r.user_id);
}

/** The unit's main convenor (null when it has none): extension requests beyond the tutor's reach, and requests for more test attempts, go there. */
export async function mainConvenorOf(em: Em, unitId: number): Promise<number | null> {
  const row = await db(em)
    .selectFrom('units as u')
    .innerJoin('unit_roles as r', 'r.id', 'u.main_convenor_id')
    .select('r.user_id')
    .where('u.id', '=', unitId)
    .executeTakeFirst();
  return row?.user_id ?? null;
}
