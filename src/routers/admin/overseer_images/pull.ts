import { pullOverseerImage as pull } from '../../../operations/admin/overseer_images/overseer-images.ts';
import { route } from '../../../trpc/route.ts';
import { systemMutation } from '../../../trpc/scopes/index.ts';
import { overseerImageIdInput, overseerImageOut } from './schemas.ts';

export const pullOverseerImage = systemMutation(overseerImageIdInput, { action: 'admin_overseer', refused: 'Not authorised to pull an overseer image' })
  .meta(
    route(
      'PUT',
      '/api/admin/overseer_images/{id}/pull_image',
      'Overseer images',
      'Queue a pull of the image into the container engine (Admin); the image comes back with status pending',
    ),
  )
  .output(overseerImageOut)
  .mutation(({ ctx, input }) => pull(ctx, input.id));
