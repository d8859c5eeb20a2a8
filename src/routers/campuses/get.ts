import { Campus } from '../../../schema/index.ts';
import { route } from '../../trpc/route.ts';
import { publicProcedure } from '../../trpc/core.ts';
import { findOr404 } from '../../db/lookup.ts';
import { campusIdInput, campusOut, toCampus } from './schemas.ts';

export const getCampus = publicProcedure
  .meta(route('GET', '/api/campuses/{id}', 'Campuses', 'Get a campus', { protect: false }))
  .input(campusIdInput)
  .output(campusOut)
  .query(async ({ ctx, input }) => toCampus(await findOr404(ctx.em, Campus, input.id)));
