import { createStep } from '../../../../operations/units/task_definitions/overseer_steps/save-step.ts';
import { route } from '../../../../trpc/route.ts';
import { unitMutation } from '../../../../trpc/scopes/index.ts';
import { createStepInput, stepOut } from './schemas.ts';

export const STEPS_REFUSED = 'Not authorised to change the assessment steps of this unit';

export const createOverseerStep = unitMutation(createStepInput, { action: 'manage_overseer_steps', refused: STEPS_REFUSED })
  .meta(
    route('POST', '/api/units/{unit_id}/task_definitions/{task_def_id}/overseer_steps', 'Overseer steps', 'Add an assessment step to a task definition', {
      description:
        'Fields under `overseer_step` (bracketed form keys or a JSON object); `name` (unique in the definition) and `run_command` are required. ' +
        '403 while automated assessment is off for the definition. Unit Convenor or Admin. See docs/assessment-steps.md.',
      rest: { status: 201 },
    }),
  )
  .output(stepOut)
  .mutation(({ ctx, input }) => createStep(ctx.em, ctx.unit.id, input.task_def_id, input.overseer_step));
