import { TeachingPeriod } from '../../../schema/index.ts';
import { authorize } from '../../policy/index.ts';
import { authedMutation } from '../../trpc/core.ts';
import { createTeachingPeriodInput, teachingPeriodOut, toTeachingPeriod } from './schemas.ts';
import { validateTeachingPeriod } from './validate.ts';

export const createTeachingPeriod = authedMutation
  .meta({
    openapi: { method: 'POST', path: '/api/teaching_periods', tags: ['Teaching periods'], summary: 'Create a teaching period (Admin)' },
  })
  .input(createTeachingPeriodInput)
  .output(teachingPeriodOut)
  .mutation(async ({ ctx, input }) => {
    authorize(ctx.user, 'handle_teaching_period', 'Not authorised to create a teaching period');
    const tp = input.teaching_period;
    const fields = { period: tp.period, year: tp.year, startDate: tp.start_date, endDate: tp.end_date, activeUntil: tp.active_until };
    await validateTeachingPeriod(ctx.em, fields);
    const period = ctx.em.create(TeachingPeriod, fields);
    await ctx.em.flush();
    return toTeachingPeriod(period, ctx.clock.now());
  });
