import { Break, TeachingPeriod } from '../../../../schema/index.ts';
import { authorize } from '../../../policy/index.ts';
import { authedMutation } from '../../../trpc/core.ts';
import { findOr404 } from '../../lookup.ts';
import { breakOut, createBreakInput, toBreak } from './schemas.ts';
import { validateBreak } from './validate.ts';

export const createBreak = authedMutation
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/teaching_periods/{teaching_period_id}/breaks',
      tags: ['Teaching periods'],
      summary: 'Add a break to a teaching period (Admin)',
      description: 'The break must start on or after the period start, end on or before the period end, and not overlap another break.',
    },
    rest: { status: 200 },
  })
  .input(createBreakInput)
  .output(breakOut)
  .mutation(async ({ ctx, input }) => {
    authorize(ctx.user, 'handle_teaching_period', 'Not authorised to add a break');
    const period = await findOr404(ctx.em, TeachingPeriod, input.teaching_period_id);
    const span = { startDate: input.start_date, numberOfWeeks: input.number_of_weeks };
    await validateBreak(ctx.em, period, span);
    const created = ctx.em.create(Break, { teachingPeriod: period, ...span });
    await ctx.em.flush();
    return toBreak(created);
  });
