// Signing in with a password, or exchanging a token the caller holds (single sign-on return, or an
// LTI launch's sign-in token), behind the failed-attempt throttle. Not in a transaction: a failed
// attempt must stay counted, and a transaction would roll the count back along with the failure.
// The only writes of a success are the new token's row and the used LTI sign-in token's deletion.
import { User, type IUser } from '../../../schema/index.ts';
import type { Config } from '../../config.ts';
import type { Em } from '../../db/orm.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { findSession, issueToken } from './session-tokens.ts';
import { consumeSignInToken } from '../lti/sign-in-tokens.ts';
import { guardSignIn } from './sign-in-throttle.ts';
import { badRequest, tooManyRequests, unauthorized } from '../../lib/errors.ts';
import { toUser, type UserOut } from '../users/to-user.ts';

const INVALID = 'Invalid email or password.';
const INVALID_TOKEN = 'Invalid token.';

const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

export interface SignInRequest {
  username: string;
  password?: string;
  auth_token?: string;
  remember: boolean;
}

export interface SignInPlace {
  now: Date;
  /** The client's address, undefined in process (the CLI). */
  clientIp: string | undefined;
  throttle: Config['signInThrottle'];
}

/** The user and the expiry cap of the new token, or why not (the 401 message). */
async function checkCredentials(em: Em, input: Omit<SignInRequest, 'remember'>, username: string, now: Date) {
  if (input.password === undefined || input.password === '') {
    const found = await findSession(em, username, input.auth_token!, now);
    if (found.kind === 'valid') {
      const user = await em.findOneOrFail(User, { id: found.user.id });
      // An exchanged token never outlives the one presented: exchanging cannot lengthen a session.
      return { user, notAfter: found.session.expiresAt };
    }
    // Else an LTI launch's single-use sign-in token (docs/lti.md): consumed here, for a session of its own.
    const launched = await consumeSignInToken(em, username, input.auth_token!, now);
    if (launched === null) return { refused: INVALID_TOKEN };
    return { user: await em.findOneOrFail(User, { id: launched }), notAfter: undefined };
  }
  const user = await em.findOne(User, { username });
  // The hash is checked even for unknown users so timing does not reveal which usernames exist.
  const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_HASH);
  return user && ok ? { user: user as IUser, notAfter: undefined } : { refused: INVALID };
}

function minutes(seconds: number): string {
  const n = Math.ceil(seconds / 60);
  return n === 1 ? '1 minute' : `${n} minutes`;
}

/**
 * The user the credentials name, behind the failed-attempt throttle: 401 when wrong, 429 while
 * throttled. Also how other password checks (an Admin confirming an LTI registration) sign in.
 */
export async function checkSignIn(em: Em, input: Omit<SignInRequest, 'remember'>, place: SignInPlace): Promise<{ user: IUser; notAfter: Date | undefined }> {
  const username = input.username.toLowerCase();
  const guarded = await guardSignIn(
    em,
    place.throttle,
    username,
    place.clientIp,
    () => checkCredentials(em, input, username, place.now),
    (result) => !result.user,
  );
  if ('blockedFor' in guarded) {
    throw tooManyRequests(`Too many failed sign-in attempts. Try again in ${minutes(guarded.blockedFor)}.`, guarded.blockedFor);
  }
  const result = guarded.outcome;
  if (!result.user) throw unauthorized(result.refused);
  return { user: result.user, notAfter: result.notAfter };
}

/** The user and a new token; 400 without a password or token, 401 when wrong, 429 while throttled. */
export async function signIn(em: Em, input: SignInRequest, place: SignInPlace): Promise<{ user: UserOut; auth_token: string }> {
  if ((input.password === undefined || input.password === '') && !input.auth_token) throw badRequest('password is missing');
  const { user, notAfter } = await checkSignIn(em, input, place);
  return { user: toUser(user), auth_token: await issueToken(em, user, place.now, input.remember, notAfter) };
}
