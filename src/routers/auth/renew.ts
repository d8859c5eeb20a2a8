import { z } from 'zod';
import { hashToken } from '../../operations/auth/session-tokens.ts';
import { renewSession as renew } from '../../operations/auth/sessions.ts';
import { authedMutation } from '../../trpc/core.ts';
import { route } from '../../trpc/route.ts';
import { renewInput } from './schemas.ts';

export const renewSession = authedMutation
  .meta(
    route('PUT', '/api/auth', 'Authentication', 'Extend the presented token', {
      description: 'Resets the expiry of the presented token (2 hours, or the remember period) and returns the same token.',
      rest: { status: 201 },
    }),
  )
  .input(renewInput)
  .output(z.object({ auth_token: z.string() }))
  .mutation(async ({ ctx, input }) => {
    const token = ctx.credentials.token!;
    const expiresAt = await renew(ctx.em, ctx.user, ctx.session, input, ctx.clock.now());
    ctx.afterCommit(() => ctx.sessions.renewed(hashToken(token), expiresAt));
    return { auth_token: token };
  });
