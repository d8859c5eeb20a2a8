import { route } from '../../trpc/route.ts';
import { unitMutation } from '../../trpc/scopes/index.ts';
import { rolloverUnitFor } from '../../operations/units/rollover-unit.ts';
import { rolloverUnitInput, unitOut } from './schemas.ts';

export const rolloverUnitProcedure = unitMutation(rolloverUnitInput, {
  field: 'id',
  action: 'rollover_unit',
  orSystem: 'rollover',
  refused: 'Not authorised to rollover this unit',
})
  .meta(
    route('POST', '/api/units/{id}/rollover', 'Units', 'Copy a unit into a new teaching period or dates (its Convenor, Admin)', {
      description:
        "Send `teaching_period_id`, or `start_date` and `end_date`; the copy keeps the unit's settings, outcomes and task definitions " +
        '(dates moved to the same week and weekday), not its students. See docs/api/units.md.',
    }),
  )
  .output(unitOut)
  .mutation(({ ctx, input }) => rolloverUnitFor(ctx.em, ctx.unit, input, ctx.user, ctx.storage));
