import { OverseerImage } from '../../../../schema/index.ts';
import { authorize } from '../../../policy/index.ts';
import { authedMutation } from '../../../trpc/core.ts';
import { createOverseerImageInput, overseerImageOut, requireOverseerEnabled, toOverseerImage } from './schemas.ts';

export const createOverseerImage = authedMutation
  .meta({
    openapi: { method: 'POST', path: '/api/admin/overseer_images', tags: ['Overseer images'], summary: 'Add an overseer image (Admin)' },
  })
  .input(createOverseerImageInput)
  .output(overseerImageOut)
  .mutation(async ({ ctx, input }) => {
    authorize(ctx.user, 'admin_overseer', 'Not authorised to create overseer images');
    requireOverseerEnabled(ctx.config);
    const image = ctx.em.create(OverseerImage, {
      ...input.overseer_image,
      pullStatus: null,
      pullOutput: null,
      pullRequestedAt: null,
      lastPulledAt: null,
    });
    await ctx.em.flush();
    return toOverseerImage(image);
  });
