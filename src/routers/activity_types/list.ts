import { z } from 'zod';
import { ActivityType } from '../../../schema/index.ts';
import { publicProcedure } from '../../trpc/core.ts';
import { activityTypeOut, toActivityType } from './schemas.ts';

export const listActivityTypes = publicProcedure
  .meta({
    openapi: { method: 'GET', path: '/api/activity_types', protect: false, tags: ['Activity types'], summary: 'List activity types' },
  })
  .input(z.object({}))
  .output(z.array(activityTypeOut))
  .query(async ({ ctx }) => (await ctx.em.find(ActivityType, {}, { orderBy: { id: 'asc' } })).map(toActivityType));
