import { UsedSamlAssertion } from '../../../schema/index.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';

/**
 * Records that this assertion has been used; false when it already had been (a replay). Run in
 * the sign-in's transaction: a second use racing the first waits on the row and then sees it.
 */
export async function rememberAssertion(em: Em, assertionId: string, usableUntil: Date): Promise<boolean> {
  const inserted = await db(em)
    .insertInto('used_saml_assertions')
    .values({ assertion_id: assertionId, expires_at: usableUntil.toISOString() })
    .onConflict((oc) => oc.column('assertion_id').doNothing())
    .returning('assertion_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Drops the records of assertions that would be refused as expired anyway; run hourly. */
export async function deleteExpiredAssertions(em: Em, now: Date): Promise<number> {
  return em.nativeDelete(UsedSamlAssertion, { expiresAt: { $lte: now } });
}
