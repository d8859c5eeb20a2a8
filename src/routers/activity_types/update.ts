import { route } from '../../trpc/route.ts';
import { updateActivityType as changeActivityType } from '../../operations/activity_types/activity-types.ts';
import { activityTypeOut, toActivityType, updateActivityTypeInput } from './schemas.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';

export const updateActivityType = systemMutation(updateActivityTypeInput, {
  action: 'handle_activity_types',
  refused: 'Not authorised to update an activity type',
})
  .meta(route('PUT', '/api/activity_types/{id}', 'Activity types', 'Update an activity type (Admin)'))
  .output(activityTypeOut)
  .mutation(async ({ ctx, input }) => toActivityType(await changeActivityType(ctx.em, input.id, input.activity_type)));
