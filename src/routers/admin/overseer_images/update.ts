import { OverseerImage } from '../../../../schema/index.ts';
import { findOr404 } from '../../../trpc/lookup.ts';
import { overseerImageOut, requireOverseerEnabled, toOverseerImage, updateOverseerImageInput } from './schemas.ts';
import { systemMutation } from '../../../trpc/scopes/index.ts';

export const updateOverseerImage = systemMutation(updateOverseerImageInput, { action: 'admin_overseer', refused: 'Not authorised to update an overseer image' })
  .meta({
    openapi: { method: 'PUT', path: '/api/admin/overseer_images/{id}', tags: ['Overseer images'], summary: 'Update an overseer image (Admin)' },
  })
  .output(overseerImageOut)
  .mutation(async ({ ctx, input }) => {
    requireOverseerEnabled(ctx.config);
    const image = await findOr404(ctx.em, OverseerImage, input.id);
    const { name, tag } = input.overseer_image;
    if (name !== undefined) image.name = name;
    if (tag !== undefined && tag !== image.tag) {
      // Another image: the previous pull says nothing about it. (A rename keeps the result, so the
      // web client's routine PUT after a pull does not wipe the state the pull produced.)
      image.tag = tag;
      image.pullStatus = null;
      image.pullOutput = null;
      image.pullRequestedAt = null;
      image.lastPulledAt = null;
    }
    await ctx.em.flush();
    return toOverseerImage(image);
  });
