import { createHash } from 'node:crypto';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { Config } from '../../config.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { oneAtATimePerKey } from '../../lib/one-at-a-time.ts';

// Sign-in throttling after OWASP's advice: failed sign-ins are counted per (client address,
// username) and per client address, so wrong passwords sent from one place never keep the real
// user out when they sign in from another. The counts live in PostgreSQL through
// rate-limiter-flexible's store, so every API process counts against the same rows.
//
// Each key is checked (read only) before the password is, and counted only after a failure: a
// correct sign-in is never counted, and never refused because others are in flight. Attempts for
// one (address, username) run one at a time in each process, so parallel guesses cannot all pass
// the check before the first failure is written; across P API processes at most P - 1 more get
// through. The per-address count has no such queue (it would queue a whole campus NAT): a burst of
// guesses at many usernames from one address can overshoot it once by the burst's size, and is
// then refused for the rest of the window.
//
// The library keeps time with Date.now(), not the service's clock.

export type ThrottleSettings = Config['signInThrottle'];

/** The table made by Migration00005 (schema/sign-in.ts); the library never creates it. */
const TABLE = 'sign_in_failures';

/** Usernames and addresses up to this length appear in keys as they are; longer ones as a hash. */
const READABLE = 64;

/** Keeps a key short whatever a client sends (a username of any length, a forged X-Forwarded-For). */
function bounded(text: string): string {
  return text.length <= READABLE ? text : `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

interface Counter {
  limiter: RateLimiterPostgres;
  key: string;
}

/** The counters an attempt is checked against and a failure counted in; a limit of 0 turns one off. */
async function countersFor(em: Em, settings: ThrottleSettings, pairKey: string, address: string | undefined): Promise<Counter[]> {
  // The ORM's own pg pool: no second pool to size, and a lost database fails here as everywhere (503).
  const pool = await em.getConnection().getNativeClient();
  const counter = (keyPrefix: string, points: number, key: string): Counter => ({
    limiter: new RateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: TABLE,
      tableCreated: true,
      // The worker's hourly purge removes ended windows (deleteEndedWindows), not a timer per process.
      clearExpiredByTimeout: false,
      keyPrefix,
      points,
      duration: settings.windowSeconds,
    }),
    key,
  });
  const counters: Counter[] = [];
  if (settings.maxFailuresPerUser > 0) counters.push(counter('address-user', settings.maxFailuresPerUser, pairKey));
  if (address !== undefined && settings.maxFailuresPerAddress > 0) counters.push(counter('address', settings.maxFailuresPerAddress, address));
  return counters;
}

/** Seconds until the latest-ending window of a counter that has used up its failures, or null. */
async function blockedFor(counters: Counter[]): Promise<number | null> {
  const states = await Promise.all(counters.map((c) => c.limiter.get(c.key)));
  let wait: number | null = null;
  states.forEach((state, i) => {
    if (state && state.consumedPoints >= counters[i].limiter.points) {
      wait = Math.max(wait ?? 0, Math.max(1, Math.ceil(state.msBeforeNext / 1000)));
    }
  });
  return wait;
}

const oneAtATime = oneAtATimePerKey();

export type Guarded<T> = { blockedFor: number } | { outcome: T };

/**
 * Runs one sign-in attempt under the throttle: refused unseen (`blockedFor` seconds) while the
 * (address, username) or the address has used up its failures, otherwise the attempt's outcome,
 * counted as a failure when `failed` says so. Database errors propagate (the caller answers 503):
 * with the counts out of reach the throttle fails closed, as sign-in itself would.
 * `clientIp` is unknown for in-process callers; they are counted per username alone.
 */
export async function guardSignIn<T>(
  em: Em,
  settings: ThrottleSettings,
  username: string,
  clientIp: string | undefined,
  attempt: () => Promise<T>,
  failed: (outcome: T) => boolean,
): Promise<Guarded<T>> {
  const address = clientIp === undefined ? undefined : bounded(clientIp);
  // A forged address could hold a '/', making its key read like another pair's; whoever can
  // forge the address can pick any address anyway, so the ambiguity gives nothing more.
  const pairKey = `${address ?? 'in-process'}/${bounded(username)}`;
  const counters = await countersFor(em, settings, pairKey, address);
  return oneAtATime(pairKey, async () => {
    const wait = counters.length > 0 ? await blockedFor(counters) : null;
    if (wait !== null) return { blockedFor: wait };
    const outcome = await attempt();
    if (failed(outcome)) await Promise.all(counters.map((c) => c.limiter.penalty(c.key)));
    return { outcome };
  });
}

/** Removes the counts of windows that have ended; run hourly with the expired-token purge. */
export async function deleteEndedWindows(em: Em, now: Date): Promise<number> {
  const result = await db(em).deleteFrom('sign_in_failures').where('expire', '<=', now.getTime()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
