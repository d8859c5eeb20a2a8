import { route } from '../../trpc/route.ts';
import { createCampus as addCampus } from '../../operations/campuses/change-campus.ts';
import { campusOut, createCampusInput, toCampus } from './schemas.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';

export const createCampus = systemMutation(createCampusInput, { action: 'handle_campuses', refused: 'Not authorised to create a campus' })
  .meta(route('POST', '/api/campuses', 'Campuses', 'Create a campus (Admin)'))
  .output(campusOut)
  .mutation(async ({ ctx, input }) => toCampus(await addCampus(ctx.em, input.campus)));
