// GET /api/tasks: the started tasks of a unit, every student's for staff, the caller's own for a student.
import { sql } from 'kysely';
import { z } from 'zod';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { taskTutorialJoin } from '../../db/task-list.ts';

/** Spec §2 "Task (caller's own list)". */
export const listedTaskOut = z.object({
  id: z.number().int(),
  task_definition_id: z.number().int(),
  status: z.string(),
  tutorial_id: z.number().int().nullable().describe("The student's tutorial in the definition's stream (or one without a stream); null when none"),
  tutorial_stream_id: z.number().int().nullable(),
});
export type ListedTaskOut = z.infer<typeof listedTaskOut>;

/** Started tasks (any status but not_started) of the unit's enrolled students; only `ownerId`'s when given. */
export async function listStartedTasks(em: Em, unitId: number, ownerId: number | null): Promise<ListedTaskOut[]> {
  const rows = await sql<ListedTaskOut>`
    select t.id, t.task_definition_id, t.status, tu.tutorial_id, tu.tutorial_stream_id
    from tasks t
    join projects p on p.id = t.project_id
    join task_definitions d on d.id = t.task_definition_id
    ${taskTutorialJoin('tu')}
    where p.unit_id = ${unitId} and p.enrolled and t.status <> 'not_started'
      ${ownerId === null ? sql`` : sql`and p.user_id = ${ownerId}`}
    order by t.id`.execute(db(em));
  return rows.rows;
}
