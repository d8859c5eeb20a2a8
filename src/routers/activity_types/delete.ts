import { z } from 'zod';
import { ActivityType, TutorialStream } from '../../../schema/index.ts';
import { authorize } from '../../policy/index.ts';
import { authedMutation } from '../../trpc/core.ts';
import { badRequest } from '../../trpc/errors.ts';
import { findOr404 } from '../lookup.ts';
import { activityTypeIdInput } from './schemas.ts';

export const deleteActivityType = authedMutation
  .meta({
    openapi: { method: 'DELETE', path: '/api/activity_types/{id}', tags: ['Activity types'], summary: 'Delete an activity type (Admin)' },
    rest: { status: 204 },
  })
  .input(activityTypeIdInput)
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    authorize(ctx.user, 'handle_activity_types', 'Not authorised to delete an activity type');
    const activityType = await findOr404(ctx.em, ActivityType, input.id);
    // Tutorial streams name their activity type; the foreign key would refuse too, but this says why.
    if ((await ctx.em.count(TutorialStream, { activityType: activityType.id })) > 0) {
      throw badRequest('Cannot delete an activity type that is used by tutorial streams');
    }
    ctx.em.remove(activityType);
    await ctx.em.flush();
    return true as const;
  });
