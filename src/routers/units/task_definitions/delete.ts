import { z } from 'zod';
import { removeTaskDefinition } from '../../../operations/units/task_definitions/save-task-definition.ts';
import { deleteDefinitionFiles } from '../../../storage/index.ts';
import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { taskDefinitionIdInput } from './schemas.ts';

export const deleteTaskDefinitionProcedure = unitMutation(taskDefinitionIdInput, {
  action: 'add_task_def',
  refused: 'Not authorised to delete a task definition of this unit',
})
  .meta(
    route('DELETE', '/api/units/{unit_id}/task_definitions/{id}', 'Task definitions', 'Delete a task definition', {
      description:
        "Its students' tasks (with their comments and submissions), group submissions and outcome alignments go with it. Answers " +
        '`true`. Unit Convenor or Admin.',
      rest: { status: 200 },
    }),
  )
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    await removeTaskDefinition(ctx.em, ctx.unit.id, input.id);
    // Only once the row is gone for good: a rolled-back delete keeps its files. A file left by a
    // failed removal is never served again (no definition has its id).
    ctx.afterCommit(() => void deleteDefinitionFiles(ctx.storage, input.id).catch(() => undefined));
    return true as const;
  });
