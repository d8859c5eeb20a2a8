import { z } from 'zod';
import { hashToken, renewToken } from '../../lib/sessions.ts';
import { authedMutation } from '../../trpc/core.ts';
import { forbidden } from '../../trpc/errors.ts';
import { renewInput } from './schemas.ts';

export const renewSession = authedMutation
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/auth',
      tags: ['Authentication'],
      summary: 'Extend the presented token',
      description: 'Resets the expiry of the presented token (2 hours, or the remember period) and returns the same token.',
    },
    rest: { status: 201 },
  })
  .input(renewInput)
  .output(z.object({ auth_token: z.string() }))
  .mutation(async ({ ctx, input }) => {
    if (input.username.toLowerCase() !== ctx.user.username) throw forbidden('Cannot renew the token of another user');
    const token = ctx.credentials.token!;
    const expiresAt = await renewToken(ctx.em, ctx.session, ctx.user, ctx.clock.now(), input.remember);
    ctx.afterCommit(() => ctx.sessions.renewed(hashToken(token), expiresAt));
    return { auth_token: token };
  });
