import { z } from 'zod';
import { OverseerImage } from '../../../../schema/index.ts';
import { overseerImageOut, toOverseerImage } from './schemas.ts';
import { systemQuery } from '../../../trpc/scopes/index.ts';

export const listOverseerImages = systemQuery(z.object({}), { action: 'use_overseer', refused: 'Not authorised to get overseer images' })
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/admin/overseer_images',
      tags: ['Overseer images'],
      summary: 'List overseer images (Admin, Convenor); empty while Overseer is disabled',
    },
  })
  .output(z.array(overseerImageOut))
  .query(async ({ ctx }) => {
    if (!ctx.config.overseerEnabled) return [];
    return (await ctx.em.find(OverseerImage, {}, { orderBy: { id: 'asc' } })).map(toOverseerImage);
  });
