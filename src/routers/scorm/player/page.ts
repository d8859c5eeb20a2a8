import { PLAYER_CSP, playerPage } from '../../../operations/scorm/player/player-page.ts';
import { publicProcedure } from '../../../trpc/core.ts';
import { route } from '../../../trpc/route.ts';
import { playerPageInput, playerPageOut } from './schemas.ts';

// Public: a browser's navigation carries no credentials; the page's script signs in (docs/online-tests.md, "The player").
export const scormPlayerPage = publicProcedure
  .meta(
    route('GET', '/api/scorm/player/{task_def_id}', 'SCORM', "The SCORM player page for a task definition's online test", {
      protect: false,
      description:
        "An HTML page that signs in (a single-use LTI sign-in token in the URL fragment, the web client's stored session on this origin, or a form), " +
        'then offers start, resume and review through the test-attempt routes, playing the package in a sandboxed frame. See docs/online-tests.md.',
      rest: { html: true, status: 200, csp: PLAYER_CSP },
    }),
  )
  .input(playerPageInput)
  .output(playerPageOut)
  .query(({ ctx, input }) => playerPage(ctx.config.externalName, input.task_def_id, ctx.config.mail.webUrl));
