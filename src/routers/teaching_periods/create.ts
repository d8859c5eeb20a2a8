import { route } from '../../trpc/route.ts';
import { createTeachingPeriodInput, teachingPeriodOut, toTeachingPeriod } from './schemas.ts';
import { createTeachingPeriod as addTeachingPeriod } from '../../operations/teaching_periods/change-teaching-period.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';

export const createTeachingPeriod = systemMutation(createTeachingPeriodInput, {
  action: 'handle_teaching_period',
  refused: 'Not authorised to create a teaching period',
})
  .meta(route('POST', '/api/teaching_periods', 'Teaching periods', 'Create a teaching period (Admin)'))
  .output(teachingPeriodOut)
  .mutation(async ({ ctx, input }) => {
    const tp = input.teaching_period;
    const fields = { period: tp.period, year: tp.year, startDate: tp.start_date, endDate: tp.end_date, activeUntil: tp.active_until };
    return toTeachingPeriod(await addTeachingPeriod(ctx.em, fields), ctx.clock.now());
  });
