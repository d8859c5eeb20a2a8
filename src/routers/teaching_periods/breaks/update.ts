import { breakOut, toBreak, updateBreakInput } from './schemas.ts';
import { route } from '../../../trpc/route.ts';
import { updateBreak as changeBreak } from '../../../operations/teaching_periods/breaks/change-break.ts';
import { systemMutation } from '../../../trpc/scopes/index.ts';

export const updateBreak = systemMutation(updateBreakInput, { action: 'handle_teaching_period', refused: 'Not authorised to update a break' })
  .meta(route('PUT', '/api/teaching_periods/{teaching_period_id}/breaks/{id}', 'Teaching periods', 'Update a break (Admin)'))
  .output(breakOut)
  .mutation(async ({ ctx, input }) =>
    toBreak(await changeBreak(ctx.em, input.teaching_period_id, input.id, { startDate: input.start_date, numberOfWeeks: input.number_of_weeks })),
  );
