import { breakOut, toBreak, updateBreakInput } from './schemas.ts';
import { route } from '../../../trpc/route.ts';
import { findPeriodBreak } from '../../../operations/teaching_periods/breaks/find-period-break.ts';
import { validateBreak } from '../../../operations/teaching_periods/breaks/validate-break.ts';
import { systemMutation } from '../../../trpc/scopes/index.ts';

export const updateBreak = systemMutation(updateBreakInput, { action: 'handle_teaching_period', refused: 'Not authorised to update a break' })
  .meta(route('PUT', '/api/teaching_periods/{teaching_period_id}/breaks/{id}', 'Teaching periods', 'Update a break (Admin)'))
  .output(breakOut)
  .mutation(async ({ ctx, input }) => {
    const { period, brk } = await findPeriodBreak(ctx.em, input.teaching_period_id, input.id);
    const span = { startDate: input.start_date ?? brk.startDate, numberOfWeeks: input.number_of_weeks ?? brk.numberOfWeeks };
    await validateBreak(ctx.em, period, span, brk);
    ctx.em.assign(brk, span);
    await ctx.em.flush();
    return toBreak(brk);
  });
