import { z } from 'zod';
import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { deleteOutcome, findOutcome } from '../../../operations/units/outcomes/change-outcomes.ts';
import { outcomeIdInput } from './schemas.ts';

export const deleteOutcomeProcedure = unitMutation(outcomeIdInput, {
  action: 'update',
  refused: 'You are not authorised to delete outcomes in this unit.',
})
  .meta(
    route('DELETE', '/api/units/{unit_id}/outcomes/{id}', 'Outcomes', 'Delete a learning outcome', {
      description: 'Its task alignments go with it, and the later outcomes move up one number. Unit Convenor or Admin.',
      rest: { status: 204 },
    }),
  )
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    await deleteOutcome(ctx.em, await findOutcome(ctx.em, ctx.unit.id, input.id));
    return true as const;
  });
