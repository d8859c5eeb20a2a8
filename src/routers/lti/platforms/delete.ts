import { deletePlatform as remove } from '../../../operations/lti/platforms.ts';
import { route } from '../../../trpc/route.ts';
import { systemMutation } from '../../../trpc/scopes/index.ts';
import { platformIdInput, platformOut } from './schemas.ts';

export const deletePlatform = systemMutation(platformIdInput, { action: 'admin_lti', refused: 'Not authorised to manage LTI' })
  .meta(
    route('DELETE', '/api/lti/platforms/{id}', 'LTI', 'Remove a registered LTI 1.3 platform (Admin)', {
      description: 'Its logins in flight go with it; users it signed in keep their accounts. See docs/lti.md.',
    }),
  )
  .output(platformOut)
  .mutation(({ ctx, input }) => remove(ctx.em, ctx.config, input.id));
