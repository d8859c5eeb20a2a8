import { z } from 'zod';
import { listPlatforms as list } from '../../../operations/lti/platforms.ts';
import { route } from '../../../trpc/route.ts';
import { systemQuery } from '../../../trpc/scopes/index.ts';
import { platformOut } from './schemas.ts';

export const listPlatforms = systemQuery(z.object({}), { action: 'admin_lti', refused: 'Not authorised to manage LTI' })
  .meta(route('GET', '/api/lti/platforms', 'LTI', 'The registered LTI 1.3 platforms (Admin)', { description: 'See docs/lti.md.' }))
  .output(z.array(platformOut))
  .query(({ ctx }) => list(ctx.em, ctx.config));
