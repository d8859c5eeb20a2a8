import { unitMutation } from '../../trpc/scopes/index.ts';
import { route } from '../../trpc/route.ts';
import { updateUnit } from '../../operations/units/update-unit.ts';
import { updatedUnitOut, updateUnitInput } from './schemas.ts';

export const updateUnitProcedure = unitMutation(updateUnitInput, { field: 'id', action: 'update', refused: 'Not authorised to update this unit' })
  .meta(
    route('PUT', '/api/units/{id}', 'Units', 'Change a unit (its Convenor, Admin)', {
      description: "Answers with only the fields sent, as the original does; a new start date moves every task definition's dates. See docs/api/units.md.",
    }),
  )
  .output(updatedUnitOut)
  .mutation(({ ctx, input }) => updateUnit(ctx.em, ctx.unit, input.unit));
