import { unitMutation } from '../../trpc/scopes/index.ts';
import { route } from '../../trpc/route.ts';
import { updateUnit } from '../../operations/units/update-unit.ts';
import { updatedUnitOut, updateUnitInput } from './schemas.ts';

export const updateUnitProcedure = unitMutation(updateUnitInput, { field: 'id', action: 'update', refused: 'Not authorised to update this unit' })
  .meta(
    route('PUT', '/api/units/{id}', 'Units', 'Change a unit (its Convenor, Admin)', {
      description:
        "Answers with only the fields sent, as the original does. `teaching_period_id` sets the period's dates (`-1` takes the unit out of its period) and cannot be sent with `start_date` or `end_date`; dates of its own take a unit out of its period. A new start date moves every task definition's dates by the same number of days. `main_convenor_id` is a unit role id of a Convenor of this unit; `draft_task_definition_id` must be a task definition of this unit with exactly one document upload.",
    }),
  )
  .output(updatedUnitOut)
  .mutation(({ ctx, input }) => updateUnit(ctx.em, ctx.unit, input.unit));
