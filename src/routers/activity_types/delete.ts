import { z } from 'zod';
import { route } from '../../trpc/route.ts';
import { ActivityType, TutorialStream } from '../../../schema/index.ts';
import { badRequest } from '../../trpc/errors.ts';
import { findOr404 } from '../../trpc/lookup.ts';
import { activityTypeIdInput } from './schemas.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';

export const deleteActivityType = systemMutation(activityTypeIdInput, { action: 'handle_activity_types', refused: 'Not authorised to delete an activity type' })
  .meta(route('DELETE', '/api/activity_types/{id}', 'Activity types', 'Delete an activity type (Admin)', { rest: { status: 204 } }))
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    const activityType = await findOr404(ctx.em, ActivityType, input.id);
    // Tutorial streams name their activity type; the foreign key would refuse too, but this says why.
    if ((await ctx.em.count(TutorialStream, { activityType: activityType.id })) > 0) {
      throw badRequest('Cannot delete an activity type that is used by tutorial streams');
    }
    ctx.em.remove(activityType);
    await ctx.em.flush();
    return true as const;
  });
