import { route } from '../../../trpc/route.ts';
import { createBreak as addBreak } from '../../../operations/teaching_periods/breaks/change-break.ts';
import { breakOut, createBreakInput, toBreak } from './schemas.ts';
import { systemMutation } from '../../../trpc/scopes/index.ts';

export const createBreak = systemMutation(createBreakInput, { action: 'handle_teaching_period', refused: 'Not authorised to add a break' })
  .meta(
    route('POST', '/api/teaching_periods/{teaching_period_id}/breaks', 'Teaching periods', 'Add a break to a teaching period (Admin)', {
      description: 'The break must start on or after the period start, end on or before the period end, and not overlap another break.',
      rest: { status: 200 },
    }),
  )
  .output(breakOut)
  .mutation(async ({ ctx, input }) =>
    toBreak(await addBreak(ctx.em, input.teaching_period_id, { startDate: input.start_date, numberOfWeeks: input.number_of_weeks })),
  );
