import { ActivityType } from '../../../schema/index.ts';
import { route } from '../../trpc/route.ts';
import { findOr404 } from '../../db/lookup.ts';
import { activityTypeOut, toActivityType, updateActivityTypeInput } from './schemas.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';

export const updateActivityType = systemMutation(updateActivityTypeInput, {
  action: 'handle_activity_types',
  refused: 'Not authorised to update an activity type',
})
  .meta(route('PUT', '/api/activity_types/{id}', 'Activity types', 'Update an activity type (Admin)'))
  .output(activityTypeOut)
  .mutation(async ({ ctx, input }) => {
    const activityType = await findOr404(ctx.em, ActivityType, input.id);
    ctx.em.assign(activityType, input.activity_type);
    await ctx.em.flush();
    return toActivityType(activityType);
  });
