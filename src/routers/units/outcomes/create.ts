import { unitMutation } from '../../../trpc/scopes/index.ts';
import { route } from '../../../trpc/route.ts';
import { createOutcome } from '../../../operations/units/outcomes/change-outcomes.ts';
import { toOutcome } from '../../../operations/units/outcomes/outcome-rows.ts';
import { createOutcomeInput, outcomeOut } from './schemas.ts';

export const createOutcomeProcedure = unitMutation(createOutcomeInput, {
  action: 'update',
  refused: 'You are not authorised to create outcomes in this unit.',
})
  .meta(
    route('POST', '/api/units/{unit_id}/outcomes', 'Outcomes', 'Add a learning outcome to a unit', {
      description: 'Numbered after the last outcome. Without an abbreviation it is called ILO<number>. Unit Convenor or Admin.',
    }),
  )
  .output(outcomeOut)
  .mutation(async ({ ctx, input }) =>
    toOutcome(await createOutcome(ctx.em, ctx.unit.id, { name: input.name, description: input.description, abbreviation: input.abbreviation })),
  );
