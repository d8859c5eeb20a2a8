import { OverseerImage } from '../../../../schema/index.ts';
import { authorize } from '../../../policy/index.ts';
import { authedMutation } from '../../../trpc/core.ts';
import { findOr404 } from '../../lookup.ts';
import { overseerImageIdInput, overseerImageOut, requireOverseerEnabled, toOverseerImage } from './schemas.ts';

export const pullOverseerImage = authedMutation
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/admin/overseer_images/{id}/pull_image',
      tags: ['Overseer images'],
      summary: 'Queue a pull of the image into the container engine (Admin); the image comes back with status pending',
    },
  })
  .input(overseerImageIdInput)
  .output(overseerImageOut)
  .mutation(async ({ ctx, input }) => {
    authorize(ctx.user, 'admin_overseer', 'Not authorised to pull an overseer image');
    requireOverseerEnabled(ctx.config);
    const image = await findOr404(ctx.em, OverseerImage, input.id);
    image.pullStatus = 'pending';
    image.pullRequestedAt = ctx.clock.now();
    await ctx.em.flush();
    // Same transaction as the status change; the key folds repeated requests into one queued pull.
    await ctx.jobs.add('pull_overseer_image', { imageId: image.id }, { jobKey: `pull_overseer_image:${image.id}` });
    return toOverseerImage(image);
  });
