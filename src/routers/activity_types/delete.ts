import { z } from 'zod';
import { route } from '../../trpc/route.ts';
import { deleteActivityType as removeActivityType } from '../../operations/activity_types/activity-types.ts';
import { activityTypeIdInput } from './schemas.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';

export const deleteActivityType = systemMutation(activityTypeIdInput, { action: 'handle_activity_types', refused: 'Not authorised to delete an activity type' })
  .meta(route('DELETE', '/api/activity_types/{id}', 'Activity types', 'Delete an activity type (Admin)', { rest: { status: 204 } }))
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    await removeActivityType(ctx.em, input.id);
    return true as const;
  });
