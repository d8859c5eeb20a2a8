import { z } from 'zod';
import { unitMutation } from '../../../trpc/scoped.ts';
import { deleteTaskDefinition, findTaskDefinition } from './operations.ts';
import { taskDefinitionIdInput } from './schemas.ts';

export const deleteTaskDefinitionProcedure = unitMutation(taskDefinitionIdInput, {
  action: 'add_task_def',
  refused: 'Not authorised to delete a task definition of this unit',
})
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/units/{unit_id}/task_definitions/{id}',
      tags: ['Task definitions'],
      summary: 'Delete a task definition',
      description: "Its students' tasks (with their comments and submissions), group submissions and outcome alignments go with it. Answers `true`. Unit Convenor or Admin.",
    },
    rest: { status: 200 },
  })
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    await deleteTaskDefinition(ctx.em, await findTaskDefinition(ctx.em, ctx.unit.id, input.id));
    return true as const;
  });
