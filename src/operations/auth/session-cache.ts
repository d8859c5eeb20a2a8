import type { Caller, Session } from './session-tokens.ts';

interface Entry {
  caller: Caller;
  session: Session;
  storedAt: number;
}

/**
 * Remembers recently verified tokens for a few seconds so that an authenticated request needs
 * one database round trip instead of two. Changes made through this process (sign-out, renewal,
 * edits of a user) update or drop entries at once; another API process sharing the database
 * sees them within `ttlMs`: an entry is trusted for `ttlMs` from the moment the read that filled
 * it began, so it never outlives a change committed before that read by more than `ttlMs`
 * (docs/operating/scaling.md). A cached token past its expiry is always re-checked in the database.
 * At most `maxEntries` are kept, the oldest dropped first.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
    /** A monotonic clock in milliseconds; tests pass their own. */
    readonly now: () => number = () => performance.now(),
  ) {}

  get(tokenHash: string): { caller: Caller; session: Session } | undefined {
    if (this.ttlMs <= 0) return undefined;
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (this.now() - entry.storedAt > this.ttlMs) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry;
  }

  /** `readAt`: `now()` taken before the database read that found the session. */
  set(tokenHash: string, caller: Caller, session: Session, readAt = this.now()): void {
    if (this.ttlMs <= 0) return;
    // Oldest first: Map keeps insertion order, so this evicts the least recently stored entry.
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(tokenHash, { caller, session, storedAt: readAt });
  }

  renewed(tokenHash: string, expiresAt: Date): void {
    const entry = this.entries.get(tokenHash);
    if (entry) entry.session = { ...entry.session, expiresAt };
  }

  forgetToken(tokenHash: string): void {
    this.entries.delete(tokenHash);
  }

  /** After a user's record changes (role, names), their cached sessions must be read again. */
  forgetUser(userId: number): void {
    for (const [hash, entry] of this.entries) if (entry.caller.id === userId) this.entries.delete(hash);
  }
}
