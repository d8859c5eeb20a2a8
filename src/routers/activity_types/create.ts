import { ActivityType } from '../../../schema/index.ts';
import { authorize } from '../../policy/index.ts';
import { authedMutation } from '../../trpc/core.ts';
import { activityTypeOut, createActivityTypeInput, toActivityType } from './schemas.ts';

export const createActivityType = authedMutation
  .meta({
    openapi: { method: 'POST', path: '/api/activity_types', tags: ['Activity types'], summary: 'Create an activity type (Admin)' },
  })
  .input(createActivityTypeInput)
  .output(activityTypeOut)
  .mutation(async ({ ctx, input }) => {
    authorize(ctx.user, 'handle_activity_types', 'Not authorised to create an activity type');
    // Duplicate names or abbreviations hit the unique indexes and become 400s.
    const activityType = ctx.em.create(ActivityType, input.activity_type);
    await ctx.em.flush();
    return toActivityType(activityType);
  });
