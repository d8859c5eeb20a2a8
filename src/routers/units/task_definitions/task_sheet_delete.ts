import { z } from 'zod';
import { storageKeys } from '../../../storage/index.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { findTaskDefinition } from './operations.ts';
import { taskSheetInput } from './task_sheet_schemas.ts';

export const deleteTaskSheet = unitMutation(taskSheetInput, {
  action: 'add_task_def',
  refused: 'Not authorised to remove task sheets of unit',
})
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/units/{unit_id}/task_definitions/{task_def_id}/task_sheet',
      tags: ['Task definitions'],
      summary: "Remove a task definition's task sheet",
      description:
        'Answers `true`, also when there was no sheet. Afterwards `has_task_sheet` is false and `task_pdf` answers the placeholder PDF. Unit Convenor or Admin.',
    },
    rest: { status: 200 },
  })
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    const definition = await findTaskDefinition(ctx.em, ctx.unit.id, input.task_def_id);
    await ctx.storage.delete(storageKeys.taskSheet(definition.id));
    return true as const;
  });
