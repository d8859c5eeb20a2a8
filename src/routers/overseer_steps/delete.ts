import { deleteStep, stepAndUnit } from '../../operations/overseer_steps/delete-step.ts';
import { route } from '../../trpc/route.ts';
import { unitMutation } from '../../trpc/scopes/index.ts';
import { deletedStepOut, deleteStepInput } from '../units/task_definitions/overseer_steps/schemas.ts';

export const deleteOverseerStep = unitMutation(deleteStepInput, {
  action: 'manage_overseer_steps',
  refused: 'Not authorised to change the assessment steps of this unit',
  unitOf: stepAndUnit,
})
  .meta(
    route('DELETE', '/api/overseer_steps/{id}', 'Overseer steps', 'Delete an assessment step', {
      description: 'Results already recorded keep the step’s name and flags. 403 while automated assessment is off for its definition. Unit Convenor or Admin.',
    }),
  )
  .output(deletedStepOut)
  .mutation(({ ctx, input: _input }) => deleteStep(ctx.em, ctx.unit.id, ctx.record));
