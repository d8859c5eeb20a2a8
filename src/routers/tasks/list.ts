import { route } from '../../trpc/route.ts';
import { sql } from 'kysely';
import { z } from 'zod';
import { db } from '../../db/kysely.ts';
import { taskTutorialJoin } from '../../db/task-list.ts';
import { canInUnit } from '../../policy/index.ts';
import { unitQuery } from '../../trpc/scopes/index.ts';
import { listedTaskOut, listTasksInput, type ListedTaskOut } from './schemas.ts';

export const listTasks = unitQuery(listTasksInput, { action: 'get_unit', refused: 'You do not have permission to read these task details' })
  .meta(
    route('GET', '/api/tasks', 'Tasks and similarities', "Started tasks in a unit: all of them for staff, the caller's own for a student", {
      description:
        "Staff of the unit (and Admins) get every started task (any status but not_started) of the unit's enrolled " +
        "students, as the original's task summary; a student of the unit gets their own started tasks (the spec's " +
        '"caller\'s own list"). See docs/api/projects.md.',
    }),
  )
  .output(z.array(listedTaskOut))
  .query(async ({ ctx }) => {
    const everyone = canInUnit(ctx.unitRole, 'get_students');
    const rows = await sql<ListedTaskOut>`
      select t.id, t.task_definition_id, t.status, tu.tutorial_id, tu.tutorial_stream_id
      from tasks t
      join projects p on p.id = t.project_id
      join task_definitions d on d.id = t.task_definition_id
      ${taskTutorialJoin('tu')}
      where p.unit_id = ${ctx.unit.id} and p.enrolled and t.status <> 'not_started'
        ${everyone ? sql`` : sql`and p.user_id = ${ctx.user.id}`}
      order by t.id`.execute(db(ctx.em));
    return rows.rows;
  });
