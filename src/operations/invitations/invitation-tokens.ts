// One-time invitation tokens: random, stored only as their SHA-256, valid for 7 days, used once.
import { createHash, randomBytes } from 'node:crypto';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';

export const INVITATION_DAYS = 7;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new invitation for the user; the token returned exists nowhere else (it goes into the mail). */
export async function createInvitation(em: Em, userId: number, now: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db(em)
    .insertInto('invitations')
    .values({
      user_id: userId,
      token_hash: hashToken(token),
      expires_at: new Date(now.getTime() + INVITATION_DAYS * 86_400_000).toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    } as never)
    .execute();
  return token;
}

export interface OpenInvitation {
  id: number;
  userId: number;
  username: string;
  firstName: string;
}

/** The invitation a token names, or why it cannot be used. */
export async function findInvitation(em: Em, token: string, now: Date): Promise<OpenInvitation | { refused: 'unknown' | 'used' | 'expired' }> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { refused: 'unknown' };
  const row = await db(em)
    .selectFrom('invitations as i')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .select(['i.id', 'i.user_id', 'i.expires_at', 'i.used_at', 'u.username', 'u.first_name'])
    .where('i.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) return { refused: 'unknown' };
  if (row.used_at !== null) return { refused: 'used' };
  if (new Date(row.expires_at).getTime() <= now.getTime()) return { refused: 'expired' };
  return { id: row.id, userId: row.user_id, username: row.username, firstName: row.first_name };
}
