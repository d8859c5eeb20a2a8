import { z } from 'zod';
import { route } from '../../../trpc/route.ts';
import { breakIdInput } from './schemas.ts';
import { findPeriodBreak } from '../../../operations/teaching_periods/breaks/find-period-break.ts';
import { systemMutation } from '../../../trpc/scopes/index.ts';

export const deleteBreak = systemMutation(breakIdInput, { action: 'handle_teaching_period', refused: 'Not authorised to delete a break' })
  .meta(route('DELETE', '/api/teaching_periods/{teaching_period_id}/breaks/{id}', 'Teaching periods', 'Delete a break (Admin)', { rest: { status: 204 } }))
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    const { brk } = await findPeriodBreak(ctx.em, input.teaching_period_id, input.id);
    ctx.em.remove(brk);
    await ctx.em.flush();
    return true as const;
  });
