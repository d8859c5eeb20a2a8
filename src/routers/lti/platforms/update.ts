import { updatePlatform as update } from '../../../operations/lti/platforms.ts';
import { route } from '../../../trpc/route.ts';
import { systemMutation } from '../../../trpc/scopes/index.ts';
import { platformOut, updatePlatformInput } from './schemas.ts';

export const updatePlatform = systemMutation(updatePlatformInput, { action: 'admin_lti', refused: 'Not authorised to manage LTI' })
  .meta(
    route('PUT', '/api/lti/platforms/{id}', 'LTI', 'Change a registered LTI 1.3 platform (Admin)', {
      description: 'Only the fields sent change; `deployment_ids` replaces the list. See docs/lti.md.',
    }),
  )
  .output(platformOut)
  .mutation(({ ctx, input: { id, ...fields } }) => update(ctx.em, ctx.config, id, fields));
