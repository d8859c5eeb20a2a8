import { Campus } from '../../../schema/index.ts';
import { route } from '../../trpc/route.ts';
import { campusOut, createCampusInput, toCampus } from './schemas.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';

export const createCampus = systemMutation(createCampusInput, { action: 'handle_campuses', refused: 'Not authorised to create a campus' })
  .meta(route('POST', '/api/campuses', 'Campuses', 'Create a campus (Admin)'))
  .output(campusOut)
  .mutation(async ({ ctx, input }) => {
    const campus = ctx.em.create(Campus, input.campus);
    await ctx.em.flush();
    return toCampus(campus);
  });
