import { route } from '../../trpc/route.ts';
import { z } from 'zod';
import { listStartedTasks } from '../../operations/tasks/list-tasks.ts';
import { canInUnit } from '../../policy/index.ts';
import { unitQuery } from '../../trpc/scopes/index.ts';
import { listedTaskOut, listTasksInput } from './schemas.ts';

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
  // Staff see every student's tasks; a student only their own.
  .query(({ ctx }) => listStartedTasks(ctx.em, ctx.unit.id, canInUnit(ctx.unitRole, 'get_students') ? null : ctx.user.id));
