import { Campus } from '../../../schema/index.ts';
import { route } from '../../trpc/route.ts';
import { findOr404 } from '../../db/lookup.ts';
import { campusOut, toCampus, updateCampusInput } from './schemas.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';

export const updateCampus = systemMutation(updateCampusInput, { action: 'handle_campuses', refused: 'Not authorised to update a campus' })
  .meta(route('PUT', '/api/campuses/{id}', 'Campuses', 'Update a campus (Admin)'))
  .output(campusOut)
  .mutation(async ({ ctx, input }) => {
    const campus = await findOr404(ctx.em, Campus, input.id);
    ctx.em.assign(campus, input.campus);
    await ctx.em.flush();
    return toCampus(campus);
  });
