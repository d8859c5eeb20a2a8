import { Campus } from '../../../schema/index.ts';
import { authorize } from '../../policy/index.ts';
import { authedMutation } from '../../trpc/core.ts';
import { findOr404 } from '../lookup.ts';
import { campusOut, toCampus, updateCampusInput } from './schemas.ts';

export const updateCampus = authedMutation
  .meta({ openapi: { method: 'PUT', path: '/api/campuses/{id}', tags: ['Campuses'], summary: 'Update a campus (Admin)' } })
  .input(updateCampusInput)
  .output(campusOut)
  .mutation(async ({ ctx, input }) => {
    authorize(ctx.user, 'handle_campuses', 'Not authorised to update a campus');
    const campus = await findOr404(ctx.em, Campus, input.id);
    ctx.em.assign(campus, input.campus);
    await ctx.em.flush();
    return toCampus(campus);
  });
