import { z } from 'zod';
import { issueScormToken } from '../../operations/auth/scorm-tokens.ts';
import { authedProcedure, inTransaction } from '../../trpc/core.ts';
import { route } from '../../trpc/route.ts';

// A GET, as the original's, that writes: the token is issued in the request's transaction.
export const scormToken = authedProcedure
  .use(inTransaction)
  .meta(
    route('GET', '/api/auth/scorm', 'Authentication', 'A token for SCORM package files', {
      description:
        'A fresh `scorm_auth_token` each call, valid for a few hours and only in `/api/scorm/...` asset URLs (never as an ' +
        '`Auth-Token`). Any signed-in user. See docs/online-tests.md.',
    }),
  )
  .input(z.object({}))
  .output(z.object({ scorm_auth_token: z.string() }))
  .query(async ({ ctx }) => ({ scorm_auth_token: await issueScormToken(ctx.em, ctx.user.id, ctx.clock.now()) }));
