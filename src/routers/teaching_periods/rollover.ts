import { z } from 'zod';
import { route } from '../../trpc/route.ts';
import { rolloverTeachingPeriod } from '../../operations/teaching_periods/rollover-teaching-period.ts';
import { formBool, idField } from '../../trpc/fields.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';

export const rolloverTeachingPeriodInput = z.object({
  existing_teaching_period_id: idField(),
  new_teaching_period_id: idField(),
  rollover_inactive: formBool().default(false),
  search_forward: formBool().default(true),
});

export const rolloverTeachingPeriodProcedure = systemMutation(rolloverTeachingPeriodInput, {
  action: 'rollover',
  refused: 'Not authorised to rollover a teaching period',
})
  .meta(
    route(
      'POST',
      '/api/teaching_periods/{existing_teaching_period_id}/rollover',
      'Teaching periods',
      'Roll every unit of a teaching period into a later one (Admin)',
      {
        description:
          "Copies each active unit (all with `rollover_inactive=true`) into the new period as a unit's rollover does; codes the new period " +
          'has are skipped. Answers JSON null. See docs/api/units.md.',
        rest: { status: 200 },
      },
    ),
  )
  .output(z.null())
  .mutation(async ({ ctx, input }) => {
    await rolloverTeachingPeriod(ctx.em, {
      sourceId: input.existing_teaching_period_id,
      targetId: input.new_teaching_period_id,
      rolloverInactive: input.rollover_inactive,
      searchForward: input.search_forward,
      now: ctx.clock.now(),
      storage: ctx.storage,
    });
    return null;
  });
