import { z } from 'zod';
import { route } from '../../trpc/route.ts';
import { Campus } from '../../../schema/index.ts';
import { findOr404 } from '../../trpc/lookup.ts';
import { campusIdInput } from './schemas.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';

export const deleteCampus = systemMutation(campusIdInput, { action: 'handle_campuses', refused: 'Not authorised to delete a campus' })
  .meta(route('DELETE', '/api/campuses/{id}', 'Campuses', 'Delete a campus (Admin)', { rest: { status: 204 } }))
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    const campus = await findOr404(ctx.em, Campus, input.id);
    // Students and tutorials on this campus keep it: the foreign keys refuse and the caller gets a 400.
    ctx.em.remove(campus);
    await ctx.em.flush();
    return true as const;
  });
