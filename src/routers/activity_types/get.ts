import { ActivityType } from '../../../schema/index.ts';
import { route } from '../../trpc/route.ts';
import { publicProcedure } from '../../trpc/core.ts';
import { findOr404 } from '../../db/lookup.ts';
import { activityTypeIdInput, activityTypeOut, toActivityType } from './schemas.ts';

export const getActivityType = publicProcedure
  .meta(route('GET', '/api/activity_types/{id}', 'Activity types', 'Get an activity type', { protect: false }))
  .input(activityTypeIdInput)
  .output(activityTypeOut)
  .query(async ({ ctx, input }) => toActivityType(await findOr404(ctx.em, ActivityType, input.id)));
