import { z } from 'zod';
import { listCampuses } from '../../operations/campuses/list-campuses.ts';
import { publicProcedure } from '../../trpc/core.ts';
import { route } from '../../trpc/route.ts';
import { campusOut } from './schemas.ts';

export const listCampusesProcedure = publicProcedure
  .meta(route('GET', '/api/campuses', 'Campuses', 'List campuses', { protect: false }))
  .input(z.object({}))
  .output(z.array(campusOut))
  .query(({ ctx }) => listCampuses(ctx.em));
