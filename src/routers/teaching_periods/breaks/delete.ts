import { z } from 'zod';
import { authorize } from '../../../policy/index.ts';
import { authedMutation } from '../../../trpc/core.ts';
import { breakIdInput } from './schemas.ts';
import { findPeriodBreak } from './find.ts';

export const deleteBreak = authedMutation
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/teaching_periods/{teaching_period_id}/breaks/{id}',
      tags: ['Teaching periods'],
      summary: 'Delete a break (Admin)',
    },
    rest: { status: 204 },
  })
  .input(breakIdInput)
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    authorize(ctx.user, 'handle_teaching_period', 'Not authorised to delete a break');
    const { brk } = await findPeriodBreak(ctx.em, input.teaching_period_id, input.id);
    ctx.em.remove(brk);
    await ctx.em.flush();
    return true as const;
  });
