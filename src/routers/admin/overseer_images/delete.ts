import { z } from 'zod';
import { OverseerImage, TaskDefinition, Unit } from '../../../../schema/index.ts';
import { forbidden } from '../../../trpc/errors.ts';
import { findOr404 } from '../../../trpc/lookup.ts';
import { overseerImageIdInput } from './schemas.ts';
import { systemMutation } from '../../../trpc/scopes/index.ts';

export const deleteOverseerImage = systemMutation(overseerImageIdInput, { action: 'admin_overseer', refused: 'Not authorised to delete an overseer image' })
  .meta({
    openapi: { method: 'DELETE', path: '/api/admin/overseer_images/{id}', tags: ['Overseer images'], summary: 'Delete an unused overseer image (Admin)' },
    rest: { status: 204 },
  })
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    const image = await findOr404(ctx.em, OverseerImage, input.id);
    const units = await ctx.em.count(Unit, { overseerImage: image.id });
    const taskDefinitions = await ctx.em.count(TaskDefinition, { overseerImage: image.id });
    if (units > 0 || taskDefinitions > 0) throw forbidden('Cannot delete overseer image with associated units and/or task definitions');
    ctx.em.remove(image);
    await ctx.em.flush();
    return true as const;
  });
