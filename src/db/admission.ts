// Admission to the database: at most as many requests work with the database at once as the pool
// has connections; the others wait in memory, first come first served, for a bounded time. A
// flood thus costs a queue entry per request instead of timeouts in the pool's own queue, and
// the requests admitted finish one after another instead of all of them late together (each
// statement of a request would otherwise queue behind every other request's).
import PQueue from 'p-queue';
import { isDatabaseUnavailable } from './unavailable.ts';

export class AdmissionTimeout extends Error {
  constructor(
    /** Whether the last request that ended found the database unreachable (then waiting is not the cause). */
    readonly databaseUnavailable: boolean,
  ) {
    super('waited too long for a turn with the database');
  }
}

export class Admission {
  private readonly queue: PQueue;
  private lastEndedUnavailable = false;

  constructor(
    readonly concurrency: number,
    /** How long a request may wait for its turn (DATABASE_QUEUE_TIMEOUT_SECONDS). */
    readonly waitMs: number,
  ) {
    this.queue = new PQueue({ concurrency });
  }

  /** Requests working with the database now, and waiting for their turn. */
  get load(): { running: number; waiting: number } {
    return { running: this.queue.pending, waiting: this.queue.size };
  }

  /**
   * Runs `work` once a turn is free; rejects with AdmissionTimeout if none came within `waitMs`.
   * The bound applies to the wait only: work that has started is never cut off.
   */
  async run<T>(work: () => Promise<T>, failed: (result: T) => unknown = () => undefined): Promise<T> {
    const waiting = new AbortController();
    const timer = setTimeout(() => waiting.abort(new AdmissionTimeout(this.lastEndedUnavailable)), this.waitMs);
    const result = await this.queue.add(
      async () => {
        clearTimeout(timer);
        try {
          const value = await work();
          this.lastEndedUnavailable = isDatabaseUnavailable(failed(value));
          return value;
        } catch (error) {
          this.lastEndedUnavailable = isDatabaseUnavailable(error);
          throw error;
        }
      },
      { signal: waiting.signal },
    );
    return result as T;
  }
}
