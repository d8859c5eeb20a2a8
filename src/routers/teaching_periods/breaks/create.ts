import { Break, TeachingPeriod } from '../../../../schema/index.ts';
import { route } from '../../../trpc/route.ts';
import { findOr404 } from '../../../db/lookup.ts';
import { breakOut, createBreakInput, toBreak } from './schemas.ts';
import { validateBreak } from '../../../operations/teaching_periods/breaks/validate-break.ts';
import { systemMutation } from '../../../trpc/scopes/index.ts';

export const createBreak = systemMutation(createBreakInput, { action: 'handle_teaching_period', refused: 'Not authorised to add a break' })
  .meta(
    route('POST', '/api/teaching_periods/{teaching_period_id}/breaks', 'Teaching periods', 'Add a break to a teaching period (Admin)', {
      description: 'The break must start on or after the period start, end on or before the period end, and not overlap another break.',
      rest: { status: 200 },
    }),
  )
  .output(breakOut)
  .mutation(async ({ ctx, input }) => {
    const period = await findOr404(ctx.em, TeachingPeriod, input.teaching_period_id);
    const span = { startDate: input.start_date, numberOfWeeks: input.number_of_weeks };
    await validateBreak(ctx.em, period, span);
    const created = ctx.em.create(Break, { teachingPeriod: period, ...span });
    await ctx.em.flush();
    return toBreak(created);
  });
