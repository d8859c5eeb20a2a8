import { z } from 'zod';
import { route } from '../../trpc/route.ts';
import { deleteTeachingPeriod as removeTeachingPeriod } from '../../operations/teaching_periods/delete-teaching-period.ts';
import { deleteTeachingPeriodInput } from './schemas.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';

export const deleteTeachingPeriod = systemMutation(deleteTeachingPeriodInput, {
  action: 'handle_teaching_period',
  refused: 'Not authorised to delete a teaching period',
})
  .meta(
    route('DELETE', '/api/teaching_periods/{teaching_period_id}', 'Teaching periods', 'Delete a teaching period and its breaks (Admin)', {
      description: 'Refused with 400 while any unit belongs to the period.',
      rest: { status: 204 },
    }),
  )
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    await removeTeachingPeriod(ctx.em, input.teaching_period_id);
    return true as const;
  });
