import { z } from 'zod';
import { route } from '../../trpc/route.ts';
import { listActivityTypes as readActivityTypes } from '../../operations/activity_types/activity-types.ts';
import { publicProcedure } from '../../trpc/core.ts';
import { activityTypeOut, toActivityType } from './schemas.ts';

export const listActivityTypes = publicProcedure
  .meta(route('GET', '/api/activity_types', 'Activity types', 'List activity types', { protect: false }))
  .input(z.object({}))
  .output(z.array(activityTypeOut))
  .query(async ({ ctx }) => (await readActivityTypes(ctx.em)).map(toActivityType));
