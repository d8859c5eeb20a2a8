import { register } from '../../../operations/lti/register.ts';
import { publicProcedure } from '../../../trpc/core.ts';
import { route } from '../../../trpc/route.ts';
import { htmlOut, registrationConfirmInput } from './schemas.ts';

// Not in a transaction (publicProcedure): a failed sign-in must stay counted (see the operation).
export const ltiRegister = publicProcedure
  .meta(
    route('POST', '/api/lti/register', 'LTI', "LTI Dynamic Registration: an Admin's confirmation registers the tool with the LMS", {
      protect: false,
      description:
        "Form `openid_configuration`, `registration_token`, `username`, `password`. Stores the platform and answers a page that closes the LMS's dialog. " +
        '401/429 for wrong credentials, 403 for a non-Admin, 502 when the LMS fails or answers something unusable. See docs/lti.md.',
      rest: { html: true, status: 200 },
    }),
  )
  .input(registrationConfirmInput)
  .output(htmlOut)
  .mutation(({ ctx, input }) => register(ctx.em, ctx.config, { now: ctx.clock.now(), clientIp: ctx.clientIp, throttle: ctx.config.signInThrottle }, input));
