import { z } from 'zod';
import { route } from '../../trpc/route.ts';
import { deleteCampus as removeCampus } from '../../operations/campuses/delete-campus.ts';
import { campusIdInput } from './schemas.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';

export const deleteCampus = systemMutation(campusIdInput, { action: 'handle_campuses', refused: 'Not authorised to delete a campus' })
  .meta(route('DELETE', '/api/campuses/{id}', 'Campuses', 'Delete a campus (Admin)', { rest: { status: 204 } }))
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    await removeCampus(ctx.em, input.id);
    return true as const;
  });
