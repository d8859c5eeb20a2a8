import { z } from 'zod';
import { AuthToken } from '../../../schema/index.ts';
import { hashToken } from '../../lib/sessions.ts';
import { authedMutation } from '../../trpc/core.ts';

export const signOut = authedMutation
  .meta({
    openapi: { method: 'DELETE', path: '/api/auth', tags: ['Authentication'], summary: 'Sign out (ends only the presented token)' },
    rest: { status: 204 },
  })
  .input(z.object({}))
  .output(z.null())
  .mutation(async ({ ctx }) => {
    await ctx.em.nativeDelete(AuthToken, { id: ctx.session.id });
    const tokenHash = hashToken(ctx.credentials.token!);
    ctx.afterCommit(() => ctx.sessions.forgetToken(tokenHash));
    return null;
  });
