import { z } from 'zod';
import { rotateKeys as rotate } from '../../../operations/lti/tool-keys.ts';
import { route } from '../../../trpc/route.ts';
import { systemMutation } from '../../../trpc/scopes/index.ts';
import { rotatedOut } from '../schemas.ts';

export const rotateKeys = systemMutation(z.object({}), { action: 'admin_lti', refused: 'Not authorised to manage LTI' })
  .meta(
    route('POST', '/api/lti/keys/rotate', 'LTI', "Retire the tool's signing key and make a new one (Admin)", {
      description: 'The retired key stays in `/api/lti/jwks` for a day. See docs/lti.md.',
    }),
  )
  .output(rotatedOut)
  .mutation(({ ctx }) => rotate(ctx.em, ctx.config, ctx.clock));
