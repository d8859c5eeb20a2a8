import { z } from 'zod';
import { publishedKeys } from '../../operations/lti/tool-keys.ts';
import { publicProcedure } from '../../trpc/core.ts';
import { route } from '../../trpc/route.ts';
import { jwksOut } from './schemas.ts';

export const getJwks = publicProcedure
  .meta(
    route('GET', '/api/lti/jwks', 'LTI', "The tool's public signing keys (JWKS) for LTI platforms", {
      protect: false,
      description: 'The current key and keys retired less than a day ago. 503 when `LTI_KEY_SECRET` is unset. See docs/lti.md.',
    }),
  )
  .input(z.object({}))
  .output(jwksOut)
  .query(({ ctx }) => publishedKeys(ctx.em, ctx.config, ctx.clock));
