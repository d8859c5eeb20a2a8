import { createOverseerImage as create } from '../../../operations/admin/overseer_images/overseer-images.ts';
import { route } from '../../../trpc/route.ts';
import { systemMutation } from '../../../trpc/scopes/index.ts';
import { createOverseerImageInput, overseerImageOut } from './schemas.ts';

export const createOverseerImage = systemMutation(createOverseerImageInput, { action: 'admin_overseer', refused: 'Not authorised to create overseer images' })
  .meta(route('POST', '/api/admin/overseer_images', 'Overseer images', 'Add an overseer image (Admin)'))
  .output(overseerImageOut)
  .mutation(({ ctx, input }) => create(ctx, input.overseer_image));
