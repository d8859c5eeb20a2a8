import { z } from 'zod';
import { listDefinitionTasks } from '../../../../operations/units/task_definitions/tasks-of-definition.ts';
import { route } from '../../../../trpc/route.ts';
import { unitQuery } from '../../../../trpc/scopes/index.ts';
import { definitionTaskOut, definitionTasksInput } from '../schemas.ts';

export const definitionTasks = unitQuery(definitionTasksInput, {
  action: 'provide_feedback',
  refused: 'Not authorised to access tasks for this unit',
})
  .meta(
    route('GET', '/api/units/{unit_id}/task_definitions/{task_def_id}/tasks', 'Task definitions', "The students' tasks of one task definition", {
      description: "Every enrolled student's started task, with the student's tutorial in the definition's stream. Unit Tutor or Convenor.",
    }),
  )
  .output(z.array(definitionTaskOut))
  .query(({ ctx, input }) => listDefinitionTasks(ctx.em, ctx.unit.id, input.task_def_id));
