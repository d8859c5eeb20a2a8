import { TeachingPeriod, Unit } from '../../../schema/index.ts';
import { toDay } from '../../domain/dates.ts';
import { findOr404 } from '../../trpc/lookup.ts';
import { route } from '../../trpc/route.ts';
import { teachingPeriodOut, toTeachingPeriod, updateTeachingPeriodInput } from './schemas.ts';
import { validateTeachingPeriod } from '../../operations/teaching_periods/validate-teaching-period.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';

export const updateTeachingPeriod = systemMutation(updateTeachingPeriodInput, {
  action: 'handle_teaching_period',
  refused: 'Not authorised to update a teaching period',
})
  .meta(
    route('PUT', '/api/teaching_periods/{id}', 'Teaching periods', 'Update a teaching period (Admin)', {
      description: 'Only the fields sent change. A new start or end date is copied to every unit of the period.',
      // The web client's edit dialog posts to the period's address (an upstream bug the original refused with 405).
      rest: { aliases: [{ method: 'POST', path: '/api/teaching_periods/{id}' }] },
    }),
  )
  .output(teachingPeriodOut)
  .mutation(async ({ ctx, input }) => {
    const period = await findOr404(ctx.em, TeachingPeriod, input.id);
    const tp = input.teaching_period;
    const fields = {
      period: tp.period ?? period.period,
      year: tp.year ?? period.year,
      startDate: tp.start_date ?? period.startDate,
      endDate: tp.end_date ?? period.endDate,
      activeUntil: tp.active_until ?? period.activeUntil,
    };
    await validateTeachingPeriod(ctx.em, fields, period.id);

    const datesChanged = fields.startDate.getTime() !== period.startDate.getTime() || fields.endDate.getTime() !== period.endDate.getTime();
    ctx.em.assign(period, fields);
    await ctx.em.flush();
    if (datesChanged) {
      // Units in a period always run on the period's days (reference §7.1, §7.3).
      await ctx.em.nativeUpdate(
        Unit,
        { teachingPeriod: period.id },
        { startDate: toDay(fields.startDate), endDate: toDay(fields.endDate), updatedAt: ctx.clock.now() },
      );
    }
    return toTeachingPeriod(period, ctx.clock.now());
  });
