// GET /api/tasks: the started tasks of a unit, every student's for staff, the caller's own for a student.
import { sql } from 'kysely';
import { z } from 'zod';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { taskTutorialJoin } from '../../db/task-list.ts';
import { unmetPrerequisiteOut } from '../units/task_definitions/prerequisites/prerequisite-out.ts';
import { unmetPrerequisitesJson } from '../units/task_definitions/prerequisites/unmet-prerequisites.ts';

/** Spec §2 "Task (caller's own list)". */
export const listedTaskOut = z.object({
  id: z.number().int(),
  task_definition_id: z.number().int(),
  status: z.string(),
  tutorial_id: z.number().int().nullable().describe("The student's tutorial in the definition's stream (or one without a stream); null when none"),
  tutorial_stream_id: z.number().int().nullable(),
  locked: z.boolean().describe('Some prerequisite of the task is unmet (docs/prerequisites.md)'),
  prerequisites_unmet: z.array(unmetPrerequisiteOut),
});
export type ListedTaskOut = z.infer<typeof listedTaskOut>;

/** Started tasks (any status but not_started) of the unit's enrolled students; only `ownerId`'s when given. */
export async function listStartedTasks(em: Em, unitId: number, ownerId: number | null): Promise<ListedTaskOut[]> {
  const rows = await sql<ListedTaskOut>`
    select t.id, t.task_definition_id, t.status, tu.tutorial_id, tu.tutorial_stream_id,
           json_array_length(pr.unmet) > 0 as locked, pr.unmet as prerequisites_unmet
    from tasks t
    join projects p on p.id = t.project_id
    join task_definitions d on d.id = t.task_definition_id
    ${taskTutorialJoin('tu')}
    cross join lateral (select ${unmetPrerequisitesJson} as unmet) pr
    where p.unit_id = ${unitId} and p.enrolled and t.status <> 'not_started'
      ${ownerId === null ? sql`` : sql`and p.user_id = ${ownerId}`}
    order by t.id`.execute(db(em));
  return rows.rows;
}
