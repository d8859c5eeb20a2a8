import { TeachingPeriod } from '../../../schema/index.ts';
import { route } from '../../trpc/route.ts';
import { createTeachingPeriodInput, teachingPeriodOut, toTeachingPeriod } from './schemas.ts';
import { validateTeachingPeriod } from '../../operations/teaching_periods/validate-teaching-period.ts';
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
    await validateTeachingPeriod(ctx.em, fields);
    const period = ctx.em.create(TeachingPeriod, fields);
    await ctx.em.flush();
    return toTeachingPeriod(period, ctx.clock.now());
  });
