import { z } from 'zod';
import { route } from '../../trpc/route.ts';
import { TeachingPeriod, Unit } from '../../../schema/index.ts';
import { badRequest } from '../../trpc/errors.ts';
import { findOr404 } from '../../trpc/lookup.ts';
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
    const period = await findOr404(ctx.em, TeachingPeriod, input.teaching_period_id);
    if ((await ctx.em.count(Unit, { teachingPeriod: period.id })) > 0) {
      throw badRequest('Cannot delete a teaching period that has units');
    }
    // The breaks go with it: their foreign key cascades.
    ctx.em.remove(period);
    await ctx.em.flush();
    return true as const;
  });
