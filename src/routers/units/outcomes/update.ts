import { unitMutation } from '../../../trpc/scopes/index.ts';
import { route } from '../../../trpc/route.ts';
import { findOutcome, updateOutcome } from '../../../operations/units/outcomes/change-outcomes.ts';
import { toOutcome } from '../../../operations/units/outcomes/outcome-rows.ts';
import { outcomeOut, updateOutcomeInput } from './schemas.ts';

export const updateOutcomeProcedure = unitMutation(updateOutcomeInput, {
  action: 'update',
  refused: 'You are not authorised to update outcomes in this unit.',
})
  .meta(
    route('PUT', '/api/units/{unit_id}/outcomes/{id}', 'Outcomes', 'Update a learning outcome, or move it to another number', {
      description:
        'A new `ilo_number` moves the outcome there and shifts the ones in between by one, so the numbers stay 1..n (a number past the ' +
        'last moves it to the end). Unit Convenor or Admin.',
    }),
  )
  .output(outcomeOut)
  .mutation(async ({ ctx, input }) => {
    const outcome = await findOutcome(ctx.em, ctx.unit.id, input.id);
    await updateOutcome(ctx.em, outcome, {
      name: input.name,
      description: input.description,
      abbreviation: input.abbreviation,
      iloNumber: input.ilo_number,
    });
    return toOutcome(outcome);
  });
