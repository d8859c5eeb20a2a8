import { updateStep } from '../../../../operations/units/task_definitions/overseer_steps/save-step.ts';
import { route } from '../../../../trpc/route.ts';
import { unitMutation } from '../../../../trpc/scopes/index.ts';
import { STEPS_REFUSED } from './create.ts';
import { stepOut, updateStepInput } from './schemas.ts';

export const updateOverseerStep = unitMutation(updateStepInput, { action: 'manage_overseer_steps', refused: STEPS_REFUSED })
  .meta(
    route('PUT', '/api/units/{unit_id}/task_definitions/{task_def_id}/overseer_steps/{id}', 'Overseer steps', 'Change an assessment step', {
      description:
        'Fields under `overseer_step`; those left out keep their values, `null` or an empty value clears an optional one. ' +
        '403 while automated assessment is off for the definition. Unit Convenor or Admin.',
    }),
  )
  .output(stepOut)
  .mutation(({ ctx, input }) => updateStep(ctx.em, ctx.unit.id, input.task_def_id, input.id, input.overseer_step));
