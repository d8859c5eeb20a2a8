import { User } from '../../../schema/index.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { findSession, issueToken } from '../../lib/sessions.ts';
import { publicMutation } from '../../trpc/core.ts';
import { badRequest, unauthorized } from '../../trpc/errors.ts';
import { toUser } from '../users/schemas.ts';
import { signInInput, signInOut } from './schemas.ts';

const INVALID = 'Invalid email or password.';

export const signIn = publicMutation
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/auth',
      protect: false,
      tags: ['Authentication'],
      summary: 'Sign in',
      description:
        'Signs in with username and password and returns a token for the `Auth-Token` header. A wrong password or unknown user gets 401 and creates nothing. Instead of a password, a valid token of the same user may be exchanged for a fresh one (single sign-on return).',
    },
  })
  .input(signInInput)
  .output(signInOut)
  .mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    const username = input.username.toLowerCase();
    if (input.password === undefined || input.password === '') {
      if (!input.auth_token) throw badRequest('password is missing');
      const found = await findSession(ctx.em, username, input.auth_token, now);
      if (found.kind !== 'valid') throw unauthorized('Invalid token.');
      const user = await ctx.em.findOneOrFail(User, { id: found.user.id });
      return { user: toUser(user), auth_token: await issueToken(ctx.em, user, now, input.remember) };
    }
    const user = await ctx.em.findOne(User, { username });
    // The hash is checked even for unknown users so timing does not reveal which usernames exist.
    const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_HASH);
    if (!user || !ok) throw unauthorized(INVALID);
    return { user: toUser(user), auth_token: await issueToken(ctx.em, user, now, input.remember) };
  });

const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
