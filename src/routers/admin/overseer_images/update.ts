import { updateOverseerImage as update } from '../../../operations/admin/overseer_images/overseer-images.ts';
import { route } from '../../../trpc/route.ts';
import { systemMutation } from '../../../trpc/scopes/index.ts';
import { overseerImageOut, updateOverseerImageInput } from './schemas.ts';

export const updateOverseerImage = systemMutation(updateOverseerImageInput, { action: 'admin_overseer', refused: 'Not authorised to update an overseer image' })
  .meta(route('PUT', '/api/admin/overseer_images/{id}', 'Overseer images', 'Update an overseer image (Admin)'))
  .output(overseerImageOut)
  .mutation(({ ctx, input }) => update(ctx, input.id, input.overseer_image));
