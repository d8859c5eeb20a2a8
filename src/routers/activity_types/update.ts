import { ActivityType } from '../../../schema/index.ts';
import { authorize } from '../../policy/index.ts';
import { authedMutation } from '../../trpc/core.ts';
import { findOr404 } from '../lookup.ts';
import { activityTypeOut, toActivityType, updateActivityTypeInput } from './schemas.ts';

export const updateActivityType = authedMutation
  .meta({
    openapi: { method: 'PUT', path: '/api/activity_types/{id}', tags: ['Activity types'], summary: 'Update an activity type (Admin)' },
  })
  .input(updateActivityTypeInput)
  .output(activityTypeOut)
  .mutation(async ({ ctx, input }) => {
    authorize(ctx.user, 'handle_activity_types', 'Not authorised to update an activity type');
    const activityType = await findOr404(ctx.em, ActivityType, input.id);
    ctx.em.assign(activityType, input.activity_type);
    await ctx.em.flush();
    return toActivityType(activityType);
  });
