import { ActivityType } from '../../../schema/index.ts';
import { route } from '../../trpc/route.ts';
import { activityTypeOut, createActivityTypeInput, toActivityType } from './schemas.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';

export const createActivityType = systemMutation(createActivityTypeInput, {
  action: 'handle_activity_types',
  refused: 'Not authorised to create an activity type',
})
  .meta(route('POST', '/api/activity_types', 'Activity types', 'Create an activity type (Admin)'))
  .output(activityTypeOut)
  .mutation(async ({ ctx, input }) => {
    // Duplicate names or abbreviations hit the unique indexes and become 400s.
    const activityType = ctx.em.create(ActivityType, input.activity_type);
    await ctx.em.flush();
    return toActivityType(activityType);
  });
