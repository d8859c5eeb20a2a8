import { User, type IUser } from '../../../schema/index.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { findSession, issueToken } from '../../lib/sessions.ts';
import { guardSignIn } from '../../lib/sign-in-throttle.ts';
import type { Context } from '../../trpc/context.ts';
import { publicProcedure } from '../../trpc/core.ts';
import { badRequest, tooManyRequests, unauthorized } from '../../trpc/errors.ts';
import { toUser } from '../users/schemas.ts';
import { signInInput, signInOut, type SignInInput } from './schemas.ts';

const INVALID = 'Invalid email or password.';
const INVALID_TOKEN = 'Invalid token.';

const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** The user and the expiry cap of the new token, or why not (the 401 message). */
async function checkCredentials(ctx: Context, input: SignInInput, username: string, now: Date) {
  if (input.password === undefined || input.password === '') {
    const found = await findSession(ctx.em, username, input.auth_token!, now);
    if (found.kind !== 'valid') return { refused: INVALID_TOKEN };
    const user = await ctx.em.findOneOrFail(User, { id: found.user.id });
    // An exchanged token never outlives the one presented: exchanging cannot lengthen a session.
    return { user, notAfter: found.session.expiresAt };
  }
  const user = await ctx.em.findOne(User, { username });
  // The hash is checked even for unknown users so timing does not reveal which usernames exist.
  const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_HASH);
  return user && ok ? { user: user as IUser, notAfter: undefined } : { refused: INVALID };
}

function minutes(seconds: number): string {
  const n = Math.ceil(seconds / 60);
  return n === 1 ? '1 minute' : `${n} minutes`;
}

// Not in a transaction: a failed attempt must stay counted, and a transaction would roll the
// count back along with the failure. The only write of a success is the new token's row.
export const signIn = publicProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/auth',
      protect: false,
      tags: ['Authentication'],
      summary: 'Sign in',
      description:
        'Signs in with username and password and returns a token for the `Auth-Token` header. A wrong password or unknown user (of any length) gets 401 and creates nothing. Instead of a password, a valid token of the same user may be exchanged for a fresh one that expires no later than it (single sign-on return). Failed attempts are counted per username and client address, and per client address: once either has used up its failures, attempts from that address (even with the right password) get 429 with a `Retry-After` header until the window ends, while the same username from another address is unaffected. Correct sign-ins are never counted.',
    },
  })
  .input(signInInput)
  .output(signInOut)
  .mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    const username = input.username.toLowerCase();
    if ((input.password === undefined || input.password === '') && !input.auth_token) throw badRequest('password is missing');

    const guarded = await guardSignIn(
      ctx.em,
      ctx.config.signInThrottle,
      username,
      ctx.clientIp,
      () => checkCredentials(ctx, input, username, now),
      (result) => !result.user,
    );
    if ('blockedFor' in guarded) {
      throw tooManyRequests(`Too many failed sign-in attempts. Try again in ${minutes(guarded.blockedFor)}.`, guarded.blockedFor);
    }
    const result = guarded.outcome;
    if (!result.user) throw unauthorized(result.refused);
    return { user: toUser(result.user), auth_token: await issueToken(ctx.em, result.user, now, input.remember, result.notAfter) };
  });
