import { roleInUnit } from '../../policy/index.ts';
import { badRequest } from '../../trpc/errors.ts';
import { unitMutation } from '../../trpc/scopes/index.ts';
import { rolloverUnit, type RolloverTarget } from '../../operations/units/rollover-unit.ts';
import { unitDetail } from '../../operations/units/unit-detail.ts';
import { rolloverUnitInput, unitOut } from './schemas.ts';

export const rolloverUnitProcedure = unitMutation(rolloverUnitInput, {
  field: 'id',
  action: 'rollover_unit',
  orSystem: 'rollover',
  refused: 'Not authorised to rollover this unit',
})
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/units/{id}/rollover',
      tags: ['Units'],
      summary: 'Copy a unit into a new teaching period or dates (its Convenor, Admin)',
      description:
        "Send `teaching_period_id`, or `start_date` and `end_date`. The copy keeps the unit's settings, its main convenor (the only staff copied), streams, group sets without groups, outcomes, task definitions (each date at the same week and weekday of the new period, breaks counted) and their outcome alignments; no tutorials, enrolments or tasks. Its code must be free in the new period (400).",
    },
  })
  .output(unitOut)
  .mutation(async ({ ctx, input }) => {
    const hasDates = input.start_date !== undefined || input.end_date !== undefined;
    let target: RolloverTarget;
    if (input.teaching_period_id !== undefined) {
      if (hasDates) throw badRequest('teaching_period_id, start_date are mutually exclusive');
      target = { teachingPeriodId: input.teaching_period_id };
    } else if (input.start_date !== undefined && input.end_date !== undefined) {
      if (input.end_date < input.start_date) throw badRequest('End date should be after the start date');
      target = { startDate: input.start_date, endDate: input.end_date };
    } else {
      throw badRequest('teaching_period_id, or start_date and end_date, are missing');
    }
    const copy = await rolloverUnit(ctx.em, ctx.unit, target, ctx.storage);
    return unitDetail(ctx.em, copy.id, await roleInUnit(ctx.em, ctx.user, copy.id), ctx.storage);
  });
