import { ActivityType } from '../../../schema/index.ts';
import { publicProcedure } from '../../trpc/core.ts';
import { findOr404 } from '../../trpc/lookup.ts';
import { activityTypeIdInput, activityTypeOut, toActivityType } from './schemas.ts';

export const getActivityType = publicProcedure
  .meta({
    openapi: { method: 'GET', path: '/api/activity_types/{id}', protect: false, tags: ['Activity types'], summary: 'Get an activity type' },
  })
  .input(activityTypeIdInput)
  .output(activityTypeOut)
  .query(async ({ ctx, input }) => toActivityType(await findOr404(ctx.em, ActivityType, input.id)));
