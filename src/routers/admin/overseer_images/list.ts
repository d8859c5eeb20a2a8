import { z } from 'zod';
import { listOverseerImages as list } from '../../../operations/admin/overseer_images/overseer-images.ts';
import { route } from '../../../trpc/route.ts';
import { systemQuery } from '../../../trpc/scopes/index.ts';
import { overseerImageOut } from './schemas.ts';

export const listOverseerImages = systemQuery(z.object({}), { action: 'use_overseer', refused: 'Not authorised to get overseer images' })
  .meta(route('GET', '/api/admin/overseer_images', 'Overseer images', 'List overseer images (Admin, Convenor); empty while Overseer is disabled'))
  .output(z.array(overseerImageOut))
  .query(({ ctx }) => list(ctx.em, ctx.config));
