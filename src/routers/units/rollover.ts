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
        "Send `teaching_period_id`, or `start_date` and `end_date`. The copy keeps the unit's settings, its main convenor (the only staff copied), " +
        'streams, group sets without groups, outcomes, task definitions (each date at the same week and weekday of the new period, breaks counted) ' +
        'and their outcome alignments; no tutorials, enrolments or tasks. Its code must be free in the new period (400).',
    }),
  )
  .output(unitOut)
  .mutation(({ ctx, input }) => rolloverUnitFor(ctx.em, ctx.unit, input, ctx.user, ctx.storage));
