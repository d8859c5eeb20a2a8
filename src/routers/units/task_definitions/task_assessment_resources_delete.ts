import { z } from 'zod';
import { storageKeys } from '../../../storage/index.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { findTaskDefinition } from './operations.ts';
import { definitionZipInput } from './task_resources_schemas.ts';

export const deleteTaskAssessmentResources = unitMutation(definitionZipInput, {
  action: 'add_task_def',
  refused: 'Not authorised to remove task assessment resources of unit',
})
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/units/{unit_id}/task_definitions/{task_def_id}/task_assessment_resources',
      tags: ['Task definitions'],
      summary: "Remove a task definition's assessment resources",
      description: 'No body (204), also when there were none. Afterwards `has_task_assessment_resources` is false. Unit Convenor or Admin.',
    },
    rest: { status: 204 },
  })
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    const definition = await findTaskDefinition(ctx.em, ctx.unit.id, input.task_def_id);
    await ctx.storage.delete(storageKeys.taskAssessmentResources(definition.id));
    return true as const;
  });
