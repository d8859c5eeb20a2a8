import { unitMutation } from '../../../trpc/scopes/index.ts';
import { definitionFields } from './input.ts';
import { findTaskDefinition, updateTaskDefinition } from './operations.ts';
import { definitionForStaff } from './respond.ts';
import { taskDefinitionOut, updateTaskDefinitionInput } from './schemas.ts';

export const updateTaskDefinitionProcedure = unitMutation(updateTaskDefinitionInput, {
  action: 'add_task_def',
  refused: 'Not authorised to create a task definition of this unit',
})
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/units/{unit_id}/task_definitions/{id}',
      tags: ['Task definitions'],
      summary: 'Update a task definition',
      description:
        'Only the `task_def` fields sent change, under the rules of create. `group_set_id` -1 or null removes the group set (refused once a task has a submission). ' +
        "The unit's draft learning summary definition must keep a single document upload. Unit Convenor or Admin.",
    },
  })
  .output(taskDefinitionOut)
  .mutation(async ({ ctx, input }) => {
    const td = await findTaskDefinition(ctx.em, ctx.unit.id, input.id);
    await updateTaskDefinition(ctx.em, ctx.unit, td, definitionFields(input.task_def));
    return definitionForStaff(ctx.em, ctx.unit, td.id, ctx.storage);
  });
