import { route } from '../../trpc/route.ts';
import { teachingPeriodOut, toTeachingPeriod, updateTeachingPeriodInput } from './schemas.ts';
import { updateTeachingPeriod as changeTeachingPeriod } from '../../operations/teaching_periods/change-teaching-period.ts';
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
    const tp = input.teaching_period;
    const changes = { period: tp.period, year: tp.year, startDate: tp.start_date, endDate: tp.end_date, activeUntil: tp.active_until };
    return toTeachingPeriod(await changeTeachingPeriod(ctx.em, input.id, changes, ctx.clock.now()), ctx.clock.now());
  });
