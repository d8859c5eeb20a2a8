import { z } from 'zod';
import { Campus } from '../../../schema/index.ts';
import { publicProcedure } from '../../trpc/core.ts';
import { campusOut, toCampus } from './schemas.ts';

export const listCampuses = publicProcedure
  .meta({ openapi: { method: 'GET', path: '/api/campuses', protect: false, tags: ['Campuses'], summary: 'List campuses' } })
  .input(z.object({}))
  .output(z.array(campusOut))
  .query(async ({ ctx }) => (await ctx.em.find(Campus, {}, { orderBy: { id: 'asc' } })).map(toCampus));
