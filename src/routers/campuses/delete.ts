import { z } from 'zod';
import { Campus } from '../../../schema/index.ts';
import { authorize } from '../../policy/index.ts';
import { authedMutation } from '../../trpc/core.ts';
import { findOr404 } from '../lookup.ts';
import { campusIdInput } from './schemas.ts';

export const deleteCampus = authedMutation
  .meta({
    openapi: { method: 'DELETE', path: '/api/campuses/{id}', tags: ['Campuses'], summary: 'Delete a campus (Admin)' },
    rest: { status: 204 },
  })
  .input(campusIdInput)
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    authorize(ctx.user, 'handle_campuses', 'Not authorised to delete a campus');
    const campus = await findOr404(ctx.em, Campus, input.id);
    // Students and tutorials on this campus keep it: the foreign keys refuse and the caller gets a 400.
    ctx.em.remove(campus);
    await ctx.em.flush();
    return true as const;
  });
