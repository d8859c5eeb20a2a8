import { createPlatform as create } from '../../../operations/lti/platforms.ts';
import { route } from '../../../trpc/route.ts';
import { systemMutation } from '../../../trpc/scopes/index.ts';
import { createPlatformInput, platformOut } from './schemas.ts';

export const createPlatform = systemMutation(createPlatformInput, { action: 'admin_lti', refused: 'Not authorised to manage LTI' })
  .meta(
    route('POST', '/api/lti/platforms', 'LTI', 'Register an LTI 1.3 platform (an LMS) (Admin)', {
      description: 'A second platform with the same `issuer` and `client_id` is refused (400). See docs/lti.md.',
    }),
  )
  .output(platformOut)
  .mutation(({ ctx, input }) => create(ctx.em, ctx.config, input));
