import { OverseerImage } from '../../../../schema/index.ts';
import { createOverseerImageInput, overseerImageOut, requireOverseerEnabled, toOverseerImage } from './schemas.ts';
import { systemMutation } from '../../../trpc/scopes/index.ts';

export const createOverseerImage = systemMutation(createOverseerImageInput, { action: 'admin_overseer', refused: 'Not authorised to create overseer images' })
  .meta({
    openapi: { method: 'POST', path: '/api/admin/overseer_images', tags: ['Overseer images'], summary: 'Add an overseer image (Admin)' },
  })
  .output(overseerImageOut)
  .mutation(async ({ ctx, input }) => {
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
