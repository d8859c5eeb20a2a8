import { z } from 'zod';
import { OverseerImage } from '../../../../schema/index.ts';
import { authorize } from '../../../policy/index.ts';
import { authedProcedure } from '../../../trpc/core.ts';
import { overseerImageOut, toOverseerImage } from './schemas.ts';

export const listOverseerImages = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/admin/overseer_images',
      tags: ['Overseer images'],
      summary: 'List overseer images (Admin, Convenor); empty while Overseer is disabled',
    },
  })
  .input(z.object({}))
  .output(z.array(overseerImageOut))
  .query(async ({ ctx }) => {
    authorize(ctx.user, 'use_overseer', 'Not authorised to get overseer images');
    if (!ctx.config.overseerEnabled) return [];
    return (await ctx.em.find(OverseerImage, {}, { orderBy: { id: 'asc' } })).map(toOverseerImage);
  });
