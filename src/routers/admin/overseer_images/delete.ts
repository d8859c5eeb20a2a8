import { z } from 'zod';
import { deleteOverseerImage as remove } from '../../../operations/admin/overseer_images/overseer-images.ts';
import { route } from '../../../trpc/route.ts';
import { systemMutation } from '../../../trpc/scopes/index.ts';
import { overseerImageIdInput } from './schemas.ts';

export const deleteOverseerImage = systemMutation(overseerImageIdInput, { action: 'admin_overseer', refused: 'Not authorised to delete an overseer image' })
  .meta(route('DELETE', '/api/admin/overseer_images/{id}', 'Overseer images', 'Delete an unused overseer image (Admin)', { rest: { status: 204 } }))
  .output(z.literal(true))
  .mutation(({ ctx, input }) => remove(ctx.em, input.id));
