import { route } from '../../trpc/route.ts';
import { updateCampus as changeCampus } from '../../operations/campuses/change-campus.ts';
import { campusOut, toCampus, updateCampusInput } from './schemas.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';

export const updateCampus = systemMutation(updateCampusInput, { action: 'handle_campuses', refused: 'Not authorised to update a campus' })
  .meta(route('PUT', '/api/campuses/{id}', 'Campuses', 'Update a campus (Admin)'))
  .output(campusOut)
  .mutation(async ({ ctx, input }) => toCampus(await changeCampus(ctx.em, input.id, input.campus)));
