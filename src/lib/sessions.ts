import { createHash, randomBytes } from 'node:crypto';
import { AuthToken, type IAuthToken, type IUser } from '../../schema/index.ts';
import type { Em } from '../db/orm.ts';
import { tokenLifetimeMs } from '../domain/token-lifetime.ts';

/** Tokens are stored only as their SHA-256, so a database leak reveals no usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function issueToken(em: Em, user: IUser, now: Date, remember: boolean): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  em.create(AuthToken, {
    user,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + tokenLifetimeMs(user.systemRole, remember)),
    createdAt: now,
  });
  await em.flush();
  return token;
}

export type SessionLookup =
  | { kind: 'valid'; session: IAuthToken; user: IUser }
  | { kind: 'expired' }
  | { kind: 'invalid' };

/** Finds the session for a username and token in one query; an expired token is deleted. */
export async function findSession(em: Em, username: string, token: string, now: Date): Promise<SessionLookup> {
  const session = await em.findOne(AuthToken, { tokenHash: hashToken(token) }, { populate: ['user'] });
  if (!session || session.user.username !== username.toLowerCase()) return { kind: 'invalid' };
  if (session.expiresAt.getTime() <= now.getTime()) {
    await em.nativeDelete(AuthToken, { id: session.id });
    return { kind: 'expired' };
  }
  return { kind: 'valid', session, user: session.user as IUser };
}

export async function renewToken(em: Em, session: IAuthToken, user: IUser, now: Date, remember: boolean): Promise<void> {
  session.expiresAt = new Date(now.getTime() + tokenLifetimeMs(user.systemRole, remember));
  await em.flush();
}

export async function deleteExpiredTokens(em: Em, now: Date): Promise<number> {
  return em.nativeDelete(AuthToken, { expiresAt: { $lte: now } });
}

