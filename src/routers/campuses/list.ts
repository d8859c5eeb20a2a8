import { z } from 'zod';
import { db } from '../../db/kysely.ts';
import { publicProcedure } from '../../trpc/core.ts';
import { campusOut } from './schemas.ts';

export const listCampuses = publicProcedure
  .meta({ openapi: { method: 'GET', path: '/api/campuses', protect: false, tags: ['Campuses'], summary: 'List campuses' } })
  .input(z.object({}))
  .output(z.array(campusOut))
  // Read at every client start-up: plain rows, already in the wire shape.
  .query(({ ctx }) => db(ctx.em).selectFrom('campuses').select(['id', 'name', 'abbreviation', 'active', 'mode']).orderBy('id').execute());
