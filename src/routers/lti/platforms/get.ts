import { getPlatform as get } from '../../../operations/lti/platforms.ts';
import { route } from '../../../trpc/route.ts';
import { systemQuery } from '../../../trpc/scopes/index.ts';
import { platformIdInput, platformOut } from './schemas.ts';

export const getPlatform = systemQuery(platformIdInput, { action: 'admin_lti', refused: 'Not authorised to manage LTI' })
  .meta(route('GET', '/api/lti/platforms/{id}', 'LTI', 'One registered LTI 1.3 platform (Admin)', { description: 'See docs/lti.md.' }))
  .output(platformOut)
  .query(({ ctx, input }) => get(ctx.em, ctx.config, input.id));
