import { authorize } from '../../../policy/index.ts';
import { authedMutation } from '../../../trpc/core.ts';
import { breakOut, toBreak, updateBreakInput } from './schemas.ts';
import { findPeriodBreak } from './find.ts';
import { validateBreak } from './validate.ts';

export const updateBreak = authedMutation
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/teaching_periods/{teaching_period_id}/breaks/{id}',
      tags: ['Teaching periods'],
      summary: 'Update a break (Admin)',
    },
  })
  .input(updateBreakInput)
  .output(breakOut)
  .mutation(async ({ ctx, input }) => {
    authorize(ctx.user, 'handle_teaching_period', 'Not authorised to update a break');
    const { period, brk } = await findPeriodBreak(ctx.em, input.teaching_period_id, input.id);
    const span = { startDate: input.start_date ?? brk.startDate, numberOfWeeks: input.number_of_weeks ?? brk.numberOfWeeks };
    await validateBreak(ctx.em, period, span, brk);
    ctx.em.assign(brk, span);
    await ctx.em.flush();
    return toBreak(brk);
  });
