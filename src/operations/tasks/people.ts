// Who a task's comments go to and who reads on the staff's behalf (beyond-spec.md §4.6–4.7).
import { sql } from 'kysely';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';

/**
 * The student's tutor for a task: the tutor of the student's tutorial in the definition's stream
 * (or a tutorial without a stream), else the unit's main convenor. One query.
 */
export async function tutorFor(em: Em, projectId: number, taskDefinitionId: number): Promise<number | null> {
  const row = await sql<{ user_id: number | null }>`
    select coalesce(
      (select r.user_id from tutorial_enrolments e
         join tutorials tu on tu.id = e.tutorial_id
         join unit_roles r on r.id = tu.tutor_id
        where e.project_id = p.id
          and (tu.tutorial_stream_id = d.tutorial_stream_id or tu.tutorial_stream_id is null)
        order by (tu.tutorial_stream_id is null), e.id limit 1),
      (select r.user_id from unit_roles r where r.id = u.main_convenor_id)
    ) as user_id
    from projects p
    join units u on u.id = p.unit_id
    join task_definitions d on d.id = ${taskDefinitionId}
    where p.id = ${projectId}`.execute(db(em));
  return row.rows[0]?.user_id ?? null;
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
