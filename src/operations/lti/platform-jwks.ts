// The platforms' public keys, fetched from each platform's jwks_url with jose's remote JWKS: cached
// in the process, and fetched again when a token names a `kid` the cached set lacks (the platform
// rotated its keys) or after CACHE_MAX_AGE_MS.
import { createRemoteJWKSet } from 'jose';

type RemoteJwks = ReturnType<typeof createRemoteJWKSet>;

/** Keys are fetched again at least this often, so a key the platform withdrew stops being trusted. */
const CACHE_MAX_AGE_MS = 10 * 60 * 1000;
/**
 * jose waits this long after a fetch before an unknown `kid` may trigger another (default 30 s).
 * Zero here: a platform that rotates must be followed at once, and jose runs one fetch at a time
 * per set, so tokens with made-up kids cost the platform at most one request in flight.
 */
const COOLDOWN_MS = 0;
const FETCH_TIMEOUT_MS = 5000;
/** Platforms are few; the bound only keeps a long-lived process from collecting sets of old jwks_urls. */
const MAX_SETS = 100;

const sets = new Map<string, RemoteJwks>();

/** The key set of this jwks_url, one per URL in the process (so a changed jwks_url gets a set of its own). */
export function platformJwks(jwksUrl: string): RemoteJwks {
  let set = sets.get(jwksUrl);
  if (!set) {
    if (sets.size >= MAX_SETS) sets.delete(sets.keys().next().value as string);
    set = createRemoteJWKSet(new URL(jwksUrl), { cacheMaxAge: CACHE_MAX_AGE_MS, cooldownDuration: COOLDOWN_MS, timeoutDuration: FETCH_TIMEOUT_MS });
    sets.set(jwksUrl, set);
  }
  return set;
}
