// Running out of file descriptors (EMFILE: this process's limit; ENFILE: the system's) is the
// machine being overloaded, not a bug: whatever hit it (accepting a connection, connecting to the
// database, a temporary file) answers 503, and readiness says "not ready" while it lasts, so a
// load balancer sends the traffic elsewhere until connections have closed.
import { codeIn } from './error-chain.ts';

export const OUT_OF_FILE_HANDLES = 'The server has too many connections and files open at the moment. Please try again shortly.';

const CODES = new Set(['EMFILE', 'ENFILE']);

/** How long after the last EMFILE readiness still reports it. */
const REMEMBERED_MS = 5_000;
let lastSeenAt = -Infinity;

/** Whether the error comes from running out of file descriptors; if so, readiness hears of it. */
export function isOutOfFileHandles(error: unknown): boolean {
  if (!codeIn(error, CODES)) return false;
  lastSeenAt = performance.now();
  return true;
}

/** Whether this process ran out of file descriptors in the last few seconds. */
export function outOfFileHandlesRecently(): boolean {
  return performance.now() - lastSeenAt < REMEMBERED_MS;
}
