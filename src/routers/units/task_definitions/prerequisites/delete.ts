import { deletePrerequisite } from '../../../../operations/units/task_definitions/prerequisites/save-prerequisite.ts';
import { route } from '../../../../trpc/route.ts';
import { unitMutation } from '../../../../trpc/scopes/index.ts';
import { PREREQUISITES_REFUSED } from './create.ts';
import { deletePrerequisiteInput, prerequisiteOut } from './schemas.ts';

export const deleteTaskPrerequisite = unitMutation(deletePrerequisiteInput, { action: 'manage_task_prerequisites', refused: PREREQUISITES_REFUSED })
  .meta(
    route('DELETE', '/api/units/{unit_id}/task_definitions/{task_def_id}/prerequisites/{id}', 'Task prerequisites', 'Remove a prerequisite link', {
      description: 'Answers the link removed. Unit Convenor or Admin. See docs/prerequisites.md.',
    }),
  )
  .output(prerequisiteOut)
  .mutation(({ ctx, input }) => deletePrerequisite(ctx.em, ctx.unit.id, input.task_def_id, input.id));
