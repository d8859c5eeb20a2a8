import { route } from '../../trpc/route.ts';
import { createActivityType as addActivityType } from '../../operations/activity_types/activity-types.ts';
import { activityTypeOut, createActivityTypeInput, toActivityType } from './schemas.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';

export const createActivityType = systemMutation(createActivityTypeInput, {
  action: 'handle_activity_types',
  refused: 'Not authorised to create an activity type',
})
  .meta(route('POST', '/api/activity_types', 'Activity types', 'Create an activity type (Admin)'))
  .output(activityTypeOut)
  .mutation(async ({ ctx, input }) => toActivityType(await addActivityType(ctx.em, input.activity_type)));
