import type { Config } from '../config.ts';
import { db, timestamp } from '../db/kysely.ts';
import type { Em } from '../db/orm.ts';

// Sign-in throttling: failed attempts are counted per username and per client address in one
// row per key with a fixed window, in PostgreSQL, so every API process counts against the same
// rows. Each attempt is counted *before* the password is checked, in the same statement that
// reads the count, and given back when it succeeds: parallel guesses cannot all slip past the
// check before the first failure is written, and only failures stay counted.

export interface ThrottleKey {
  key: string;
  limit: number;
}

export type ThrottleSettings = Config['signInThrottle'];

/** The keys an attempt counts against; a limit of 0 turns that key off. */
export function signInKeys(settings: ThrottleSettings, username: string, clientIp: string | undefined): ThrottleKey[] {
  const keys: ThrottleKey[] = [];
  // Always the username first, then the address: every statement locks rows in the same order.
  if (settings.maxFailuresPerUser > 0) keys.push({ key: `username:${username}`, limit: settings.maxFailuresPerUser });
  if (clientIp && settings.maxFailuresPerAddress > 0) keys.push({ key: `address:${clientIp}`, limit: settings.maxFailuresPerAddress });
  return keys;
}

/**
 * Counts one attempt against each key. Returns null when the attempt may go ahead, or the
 * seconds until the window of a key that is over its limit ends (the longest, if several are).
 * `em` must not be inside the request's transaction: a failed sign-in rolls that back.
 */
export async function countAttempt(em: Em, keys: ThrottleKey[], now: Date, windowSeconds: number): Promise<number | null> {
  if (keys.length === 0) return null;
  const at = now.toISOString();
  const windowEnd = new Date(now.getTime() + windowSeconds * 1000).toISOString();
  const rows = await db(em)
    .insertInto('sign_in_throttles')
    .values(keys.map(({ key }) => ({ key, failures: 1, window_ends_at: windowEnd })))
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => {
        // A window that has ended starts again with this attempt.
        const ended = eb('sign_in_throttles.window_ends_at', '<=', at);
        return {
          failures: eb.case().when(ended).then(1).else(eb('sign_in_throttles.failures', '+', 1)).end(),
          window_ends_at: eb.case().when(ended).then(eb.ref('excluded.window_ends_at')).else(eb.ref('sign_in_throttles.window_ends_at')).end(),
        };
      }),
    )
    .returning(['key', 'failures', 'window_ends_at'])
    .execute();
  let wait: number | null = null;
  for (const row of rows) {
    const limit = keys.find((k) => k.key === row.key)!.limit;
    if (row.failures <= limit) continue;
    const seconds = Math.max(1, Math.ceil((timestamp(row.window_ends_at).getTime() - now.getTime()) / 1000));
    wait = Math.max(wait ?? 0, seconds);
  }
  return wait;
}

/** Gives back the attempt counted by countAttempt, once it turned out to be a success. */
export async function forgiveAttempt(em: Em, keys: ThrottleKey[], now: Date): Promise<void> {
  if (keys.length === 0) return;
  await db(em)
    .updateTable('sign_in_throttles')
    .set((eb) => ({ failures: eb('failures', '-', 1) }))
    .where('key', 'in', keys.map((k) => k.key))
    .where('failures', '>', 0)
    .where('window_ends_at', '>', now.toISOString())
    .execute();
}

/** Removes the rows of windows that have ended; run hourly with the expired-token purge. */
export async function deleteEndedThrottles(em: Em, now: Date): Promise<number> {
  const result = await db(em).deleteFrom('sign_in_throttles').where('window_ends_at', '<=', now.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
