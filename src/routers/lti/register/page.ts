import { registrationPage } from '../../../operations/lti/register.ts';
import { publicProcedure } from '../../../trpc/core.ts';
import { route } from '../../../trpc/route.ts';
import { htmlOut, registrationStartInput } from './schemas.ts';

export const ltiRegistrationPage = publicProcedure
  .meta(
    route('GET', '/api/lti/register', 'LTI', 'LTI Dynamic Registration: the page an LMS opens to register the tool', {
      protect: false,
      description:
        'Query `openid_configuration`, `registration_token`. A page where an Admin confirms with username and password. ' +
        '400 without `LTI_TOOL_URL` or for a configuration URL that is not https. See docs/lti.md.',
      rest: { html: true },
    }),
  )
  .input(registrationStartInput)
  .output(htmlOut)
  .query(({ ctx, input }) => registrationPage(ctx.config, input));
