import { updateDefinitionFromWire } from '../../../operations/units/task_definitions/save-task-definition.ts';
import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { taskDefinitionOut, updateTaskDefinitionInput } from './schemas.ts';

export const updateTaskDefinitionProcedure = unitMutation(updateTaskDefinitionInput, {
  action: 'add_task_def',
  refused: 'Not authorised to create a task definition of this unit',
})
  .meta(
    route('PUT', '/api/units/{unit_id}/task_definitions/{id}', 'Task definitions', 'Update a task definition', {
      description:
        'Only the `task_def` fields sent change, under the rules of create. `group_set_id` -1 or null removes the group set (refused ' +
        'once a task has a submission). ' +
        "The unit's draft learning summary definition must keep a single document upload. Unit Convenor or Admin.",
    }),
  )
  .output(taskDefinitionOut)
  .mutation(({ ctx, input }) => updateDefinitionFromWire(ctx.em, ctx.storage, ctx.unit, input.id, input.task_def));
