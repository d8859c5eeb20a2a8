import { createPrerequisite } from '../../../../operations/units/task_definitions/prerequisites/save-prerequisite.ts';
import { route } from '../../../../trpc/route.ts';
import { unitMutation } from '../../../../trpc/scopes/index.ts';
import { createPrerequisiteInput, prerequisiteOut } from './schemas.ts';

export const PREREQUISITES_REFUSED = 'Not authorised to change the prerequisites of this unit';

export const createTaskPrerequisite = unitMutation(createPrerequisiteInput, { action: 'manage_task_prerequisites', refused: PREREQUISITES_REFUSED })
  .meta(
    route('POST', '/api/units/{unit_id}/task_definitions/{task_def_id}/prerequisites', 'Task prerequisites', 'Make a task definition need another first', {
      description:
        '`prerequisite_id` (a definition of the same unit) and `task_status` (a status key). 400 for a link to itself, another unit, a cycle ' +
        'of any length, a prerequisite due later or of a higher target grade, or a pair that exists. Unit Convenor or Admin. See docs/prerequisites.md.',
      rest: { status: 201 },
    }),
  )
  .output(prerequisiteOut)
  .mutation(({ ctx, input }) =>
    createPrerequisite(ctx.em, ctx.unit.id, input.task_def_id, { prerequisiteId: input.prerequisite_id, taskStatus: input.task_status }),
  );
