import { createHash, randomBytes } from 'node:crypto';
import { AuthToken, ScormToken, type IUser } from '../../../schema/index.ts';
import type { SystemRole } from '../../../schema/enums.ts';
import { db, timestamp } from '../../db/kysely.ts';
import type { SessionCache } from './session-cache.ts';
import type { Em } from '../../db/orm.ts';
import { tokenLifetimeMs } from '../../policy/token-lifetime.ts';

/** Tokens are stored only as their SHA-256, so a database leak reveals no usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A new token for the user, lasting the role's lifetime; `notAfter` caps it, so that a token
 * exchanged for another never outlives the one presented.
 */
export async function issueToken(em: Em, user: IUser, now: Date, remember: boolean, notAfter?: Date): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  const lifetimeEnd = now.getTime() + tokenLifetimeMs(user.systemRole, remember);
  em.create(AuthToken, {
    user,
    tokenHash: hashToken(token),
    expiresAt: new Date(notAfter ? Math.min(lifetimeEnd, notAfter.getTime()) : lifetimeEnd),
    createdAt: now,
  });
  await em.flush();
  return token;
}

/** Who is calling: read-only facts of the signed-in user. Load the User entity to change it. */
export interface Caller {
  id: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  nickname: string | null;
  systemRole: SystemRole;
}

/** The presented token's row: enough to renew or end it. */
export interface Session {
  id: number;
  expiresAt: Date;
}

export type SessionLookup = { kind: 'valid'; session: Session; user: Caller } | { kind: 'expired' } | { kind: 'invalid' };

/**
 * Finds the session for a username and token with one query; an expired token is deleted.
 * Every authenticated request runs this, so it reads one plain row and builds no entity.
 */
export async function findSession(em: Em, username: string, token: string, now: Date, cache?: SessionCache): Promise<SessionLookup> {
  const tokenHash = hashToken(token);
  const cached = cache?.get(tokenHash);
  if (cached && cached.session.expiresAt.getTime() > now.getTime()) {
    return cached.caller.username === username.toLowerCase() ? { kind: 'valid', ...cached, user: cached.caller } : { kind: 'invalid' };
  }
  // Before the read: a sign-out committed while it runs is then still seen within the cache's bound.
  const readAt = cache?.now();
  const row = await db(em)
    .selectFrom('auth_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['u.id', 'u.username', 'u.email', 'u.first_name', 'u.last_name', 'u.nickname', 'u.system_role'])
    .select(['t.id as token_id', 't.expires_at as token_expires_at'])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row || row.username !== username.toLowerCase()) return { kind: 'invalid' };
  const id = row.token_id;
  const expiresAt = timestamp(row.token_expires_at);
  if (expiresAt.getTime() <= now.getTime()) {
    cache?.forgetToken(tokenHash);
    await em.nativeDelete(AuthToken, { id });
    return { kind: 'expired' };
  }
  const user: Caller = {
    id: row.id,
    username: row.username,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    nickname: row.nickname,
    systemRole: row.system_role,
  };
  cache?.set(tokenHash, user, { id, expiresAt }, readAt);
  return { kind: 'valid', session: { id, expiresAt }, user };
}

/** Extends the session and returns its new expiry (for the caller to tell the cache once committed). */
export async function renewToken(em: Em, session: Session, user: Pick<Caller, 'systemRole'>, now: Date, remember: boolean): Promise<Date> {
  const expiresAt = new Date(now.getTime() + tokenLifetimeMs(user.systemRole, remember));
  await em.nativeUpdate(AuthToken, { id: session.id }, { expiresAt });
  return expiresAt;
}

/** Ends every session of the user except `keep` (the caller's own, when they change their own password). */
export async function endSessions(em: Em, userId: number, keep?: Session): Promise<number> {
  return em.nativeDelete(AuthToken, keep ? { user: userId, id: { $ne: keep.id } } : { user: userId });
}

/** Sign-in tokens and SCORM asset tokens (scorm-tokens.ts) past their expiry; run hourly. */
export async function deleteExpiredTokens(em: Em, now: Date): Promise<number> {
  const sessions = await em.nativeDelete(AuthToken, { expiresAt: { $lte: now } });
  const scorm = await em.nativeDelete(ScormToken, { expiresAt: { $lte: now } });
  return sessions + scorm;
}
