import { OverseerImage } from '../../../../schema/index.ts';
import { findOr404 } from '../../../trpc/lookup.ts';
import { overseerImageIdInput, overseerImageOut, requireOverseerEnabled, toOverseerImage } from './schemas.ts';
import { systemMutation } from '../../../trpc/scopes/index.ts';

export const pullOverseerImage = systemMutation(overseerImageIdInput, { action: 'admin_overseer', refused: 'Not authorised to pull an overseer image' })
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/admin/overseer_images/{id}/pull_image',
      tags: ['Overseer images'],
      summary: 'Queue a pull of the image into the container engine (Admin); the image comes back with status pending',
    },
  })
  .output(overseerImageOut)
  .mutation(async ({ ctx, input }) => {
    requireOverseerEnabled(ctx.config);
    const image = await findOr404(ctx.em, OverseerImage, input.id);
    image.pullStatus = 'pending';
    image.pullRequestedAt = ctx.clock.now();
    await ctx.em.flush();
    // Same transaction as the status change; the key folds repeated requests into one queued pull.
    await ctx.jobs.add('pull_overseer_image', { imageId: image.id }, { jobKey: `pull_overseer_image:${image.id}` });
    return toOverseerImage(image);
  });
