import { Campus } from '../../../schema/index.ts';
import { authorize } from '../../policy/index.ts';
import { authedMutation } from '../../trpc/core.ts';
import { campusOut, createCampusInput, toCampus } from './schemas.ts';

export const createCampus = authedMutation
  .meta({ openapi: { method: 'POST', path: '/api/campuses', tags: ['Campuses'], summary: 'Create a campus (Admin)' } })
  .input(createCampusInput)
  .output(campusOut)
  .mutation(async ({ ctx, input }) => {
    authorize(ctx.user, 'handle_campuses', 'Not authorised to create a campus');
    const campus = ctx.em.create(Campus, input.campus);
    await ctx.em.flush();
    return toCampus(campus);
  });
