import { z } from 'zod';
import { OverseerImage, TaskDefinition, Unit } from '../../../../schema/index.ts';
import { authorize } from '../../../policy/index.ts';
import { authedMutation } from '../../../trpc/core.ts';
import { forbidden } from '../../../trpc/errors.ts';
import { findOr404 } from '../../lookup.ts';
import { overseerImageIdInput } from './schemas.ts';

export const deleteOverseerImage = authedMutation
  .meta({
    openapi: { method: 'DELETE', path: '/api/admin/overseer_images/{id}', tags: ['Overseer images'], summary: 'Delete an unused overseer image (Admin)' },
    rest: { status: 204 },
  })
  .input(overseerImageIdInput)
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    authorize(ctx.user, 'admin_overseer', 'Not authorised to delete an overseer image');
    const image = await findOr404(ctx.em, OverseerImage, input.id);
    const units = await ctx.em.count(Unit, { overseerImage: image.id });
    const taskDefinitions = await ctx.em.count(TaskDefinition, { overseerImage: image.id });
    if (units > 0 || taskDefinitions > 0) throw forbidden('Cannot delete overseer image with associated units and/or task definitions');
    ctx.em.remove(image);
    await ctx.em.flush();
    return true as const;
  });
