// Tokens for a SCORM package's assets (GET /api/auth/scorm; docs/online-tests.md, "Assets"). They
// ride in asset URLs, where any page of the package, the browser's history and a proxy's log can
// see them, so they are of their own kind (table scorm_tokens): they open a package's files and
// nothing else, and an Auth-Token lookup never finds them. Stored as their SHA-256, like sessions;
// the hourly purge of expired sign-in tokens (deleteExpiredTokens) takes the expired ones too.
import { randomBytes } from 'node:crypto';
import { ScormToken } from '../../../schema/index.ts';
import { db, timestamp } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { SCORM_TOKEN_LIFETIME_MS, SCORM_TOKENS_PER_USER } from '../../policy/index.ts';
import { hashToken } from './session-tokens.ts';

/**
 * A fresh token for the user, each call (a launch gets a token with its whole lifetime ahead).
 * The user's expired ones go, and their oldest live ones beyond SCORM_TOKENS_PER_USER, so the
 * table stays bounded however often a client asks.
 */
export async function issueScormToken(em: Em, userId: number, now: Date): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  await em.nativeDelete(ScormToken, { user: userId, expiresAt: { $lte: now } });
  const keep = await db(em)
    .selectFrom('scorm_tokens')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('expires_at', 'desc')
    .orderBy('id', 'desc')
    .limit(SCORM_TOKENS_PER_USER - 1)
    .execute();
  await db(em)
    .deleteFrom('scorm_tokens')
    .where('user_id', '=', userId)
    .$call((q) =>
      keep.length > 0
        ? q.where(
            'id',
            'not in',
            keep.map((k) => k.id),
          )
        : q,
    )
    .execute();
  em.create(ScormToken, { user: userId, tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + SCORM_TOKEN_LIFETIME_MS), createdAt: now });
  await em.flush();
  return token;
}

/** The user a SCORM token belongs to, when it is theirs (`username`) and unexpired; null otherwise. */
export async function scormTokenUser(em: Em, username: string, token: string, now: Date) {
  const row = await db(em)
    .selectFrom('scorm_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['u.id', 'u.username', 'u.system_role', 't.expires_at'])
    .where('t.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || row.username !== username.toLowerCase()) return null;
  if (timestamp(row.expires_at).getTime() <= now.getTime()) return null;
  return { id: row.id, systemRole: row.system_role };
}
