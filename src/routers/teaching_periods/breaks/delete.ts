import { z } from 'zod';
import { route } from '../../../trpc/route.ts';
import { breakIdInput } from './schemas.ts';
import { deleteBreak as removeBreak } from '../../../operations/teaching_periods/delete-teaching-period.ts';
import { systemMutation } from '../../../trpc/scopes/index.ts';

export const deleteBreak = systemMutation(breakIdInput, { action: 'handle_teaching_period', refused: 'Not authorised to delete a break' })
  .meta(route('DELETE', '/api/teaching_periods/{teaching_period_id}/breaks/{id}', 'Teaching periods', 'Delete a break (Admin)', { rest: { status: 204 } }))
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    await removeBreak(ctx.em, input.teaching_period_id, input.id);
    return true as const;
  });
