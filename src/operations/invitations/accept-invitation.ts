// Setting a first password through an invitation (POST /invitations/{token}).
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';

/**
 * Sets the user's password and uses up the invitation, with the user's other open invitations;
 * false when it was used meanwhile (of two concurrent posts, one wins).
 */
export async function acceptInvitation(em: Em, invitation: { id: number; userId: number }, passwordHash: string, now: Date): Promise<boolean> {
  return em.transactional(async (tx) => {
    const k = db(tx);
    // Claimed only while unused.
    const used = await k
      .updateTable('invitations')
      .set({ used_at: now.toISOString() } as never)
      .where('id', '=', invitation.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) === 0) return false;
    await k
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: now.toISOString() } as never)
      .where('id', '=', invitation.userId)
      .execute();
    // The user's other links end with this one.
    await k
      .updateTable('invitations')
      .set({ used_at: now.toISOString() } as never)
      .where('user_id', '=', invitation.userId)
      .where('used_at', 'is', null)
      .execute();
    return true;
  });
}
