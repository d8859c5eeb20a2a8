// How a launch ends signed in: a short-lived, single-use sign-in token in the web client's single
// sign-on return address (`#/sign_in?authToken=…&username=…`), which the client exchanges through
// POST /api/auth (sign-in.ts) for an ordinary session. Only this token ever appears in a URL: it
// lives two minutes, works once and is stored as its SHA-256, like sessions.
import { randomBytes } from 'node:crypto';
import { LtiSignInToken, type IUser } from '../../../schema/index.ts';
import type { Config } from '../../config.ts';
import { db, timestamp } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { hashToken } from '../auth/session-tokens.ts';
import { notConfigured } from '../../lib/errors.ts';

export const SIGN_IN_TOKEN_TTL_MS = 2 * 60 * 1000;
export const SIGN_IN_NOT_CONFIGURED = 'Signing in from the LMS is not configured: WEB_CLIENT_URL is not set';

/** WEB_CLIENT_URL, or 503: without it a launch has nowhere to sign the user in. */
export function webClientUrl(config: Pick<Config, 'mail'>): string {
  if (!config.mail.webUrl) throw notConfigured(SIGN_IN_NOT_CONFIGURED);
  return config.mail.webUrl;
}

/** A new sign-in token for the user; tokens nobody exchanged in time are dropped here. */
export async function issueSignInToken(em: Em, user: IUser, now: Date): Promise<string> {
  await em.nativeDelete(LtiSignInToken, { expiresAt: { $lte: now } });
  const token = randomBytes(32).toString('base64url');
  em.create(LtiSignInToken, { tokenHash: hashToken(token), user, expiresAt: new Date(now.getTime() + SIGN_IN_TOKEN_TTL_MS), createdAt: now });
  await em.flush();
  return token;
}

/** The web client's sign-in page, which posts the token to POST /api/auth and opens its home page. */
export function signInLocation(webUrl: string, token: string, username: string): string {
  const location = new URL(webUrl);
  location.hash = `/sign_in?authToken=${encodeURIComponent(token)}&username=${encodeURIComponent(username)}`;
  return location.toString();
}

/**
 * The id of the user a sign-in token was issued to, when it is theirs (`username`) and unexpired;
 * the token is deleted in the same statement, so of two exchanges racing only one gets it.
 */
export async function consumeSignInToken(em: Em, username: string, token: string, now: Date): Promise<number | null> {
  const row = await db(em)
    .deleteFrom('lti_sign_in_tokens')
    .where('token_hash', '=', hashToken(token))
    .where('user_id', 'in', (q) => q.selectFrom('users').select('id').where('username', '=', username))
    .returning(['user_id', 'expires_at'])
    .executeTakeFirst();
  if (!row || timestamp(row.expires_at).getTime() <= now.getTime()) return null;
  return row.user_id;
}
