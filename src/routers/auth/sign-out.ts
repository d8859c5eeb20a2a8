import { z } from 'zod';
import { hashToken } from '../../operations/auth/session-tokens.ts';
import { endSession } from '../../operations/auth/sessions.ts';
import { authedMutation } from '../../trpc/core.ts';
import { route } from '../../trpc/route.ts';

export const signOut = authedMutation
  .meta(route('DELETE', '/api/auth', 'Authentication', 'Sign out (ends only the presented token)', { rest: { status: 204 } }))
  .input(z.object({}))
  .output(z.null())
  .mutation(async ({ ctx }) => {
    await endSession(ctx.em, ctx.session);
    const tokenHash = hashToken(ctx.credentials.token!);
    ctx.afterCommit(() => ctx.sessions.forgetToken(tokenHash));
    return null;
  });
