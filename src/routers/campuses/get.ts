import { Campus } from '../../../schema/index.ts';
import { publicProcedure } from '../../trpc/core.ts';
import { findOr404 } from '../../trpc/lookup.ts';
import { campusIdInput, campusOut, toCampus } from './schemas.ts';

export const getCampus = publicProcedure
  .meta({ openapi: { method: 'GET', path: '/api/campuses/{id}', protect: false, tags: ['Campuses'], summary: 'Get a campus' } })
  .input(campusIdInput)
  .output(campusOut)
  .query(async ({ ctx, input }) => toCampus(await findOr404(ctx.em, Campus, input.id)));
