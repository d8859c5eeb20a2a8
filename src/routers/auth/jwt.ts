import { z } from 'zod';
import { samlSignIn as signInWithSaml } from '../../operations/auth/saml-sign-in.ts';
import { publicMutation } from '../../trpc/core.ts';
import { route } from '../../trpc/route.ts';
import { samlSignInInput, samlSignInOut } from './schemas.ts';

export const samlSignIn = publicMutation
  .meta(
    route('POST', '/api/auth/jwt', 'Authentication', 'Sign in with a SAML response from the identity provider', {
      protect: false,
      description:
        '`SAMLResponse` is the base64 SAML 2.0 Response the identity provider posted (JSON or form body, or a `SAMLResponse` header). ' +
        'Returns a remembered token; 401 for any invalid response, 403 when single sign-on is not configured. See docs/api/users.md.',
      rest: { errors: [401, 403] },
      openapi: { requestHeaders: z.object({ SAMLResponse: z.string().optional() }) },
    }),
  )
  .input(samlSignInInput)
  .output(samlSignInOut)
  .mutation(({ ctx, input }) => signInWithSaml(ctx.em, ctx.config, ctx.clock.now(), input.SAMLResponse));
