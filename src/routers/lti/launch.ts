import { launch } from '../../operations/lti/launch.ts';
import { linkContext } from '../../operations/lti/launch-link.ts';
import { publicProcedure } from '../../trpc/core.ts';
import { route } from '../../trpc/route.ts';
import { launchInput, launchLinkInput, launchOut } from './schemas.ts';

// Not publicMutation: the operations consume the single-use state or ticket on their own, outside
// the transaction of the rest, so a refused launch still uses it up (see launch-token.ts).
export const ltiLaunch = publicProcedure
  .meta(
    route('POST', '/api/lti/launch', 'LTI', 'Complete an LTI 1.3 launch (the platform posts id_token and state)', {
      protect: false,
      description:
        "Verifies the platform's id_token, then answers 302 to the web client's sign-in with a single-use token, or a page: " +
        'the choice of unit on the first Instructor launch from an unlinked course, or the deep-linking choice. ' +
        '400/401 for an invalid launch, with nothing created. See docs/lti.md.',
      rest: { html: true, redirect: true, status: 200, errors: [401] },
    }),
  )
  .input(launchInput)
  .output(launchOut)
  .mutation(({ ctx, input }) => launch(ctx.em, ctx.config, ctx.clock, input));

export const ltiLaunchLink = publicProcedure
  .meta(
    route('POST', '/api/lti/launch/link', 'LTI', "Link an LTI course to a unit and continue the Instructor's launch", {
      protect: false,
      description:
        "The form of the launch's choice page: `ticket` (single use, 10 minutes) and `unit` (a unit the Instructor convenes, or `new`). " +
        'Continues the launch as POST /api/lti/launch does. See docs/lti.md.',
      rest: { html: true, redirect: true, status: 200 },
    }),
  )
  .input(launchLinkInput)
  .output(launchOut)
  .mutation(({ ctx, input }) => linkContext(ctx.em, ctx.config, ctx.clock, input));
