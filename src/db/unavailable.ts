// Telling "the database is not there right now" apart from a bug, so that callers get 503 and
// retry, rather than 500, while PostgreSQL restarts or the network to it is down.

/**
 * Socket errors, PostgreSQL's connection exceptions (class 08, but not 08P01, a protocol violation
 * that bad input such as a NUL byte causes), too many connections, and operator intervention (57P).
 */
const CODES = new Set([
  ...['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN'],
  ...['08000', '08001', '08003', '08004', '08006', '08007', '53300', '57P01', '57P02', '57P03'],
]);
const MESSAGES = [
  /Connection terminated/i,
  /Client has encountered a connection error/i,
  /timeout exceeded when trying to connect/i,
  /Cannot use a pool after calling end/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

export const DATABASE_UNAVAILABLE = 'The database is not available at the moment. Please try again shortly.';

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = String((e as { code?: unknown }).code ?? '');
    if (CODES.has(code)) return true;
    const message = String((e as { message?: unknown }).message ?? '');
    if (MESSAGES.some((m) => m.test(message))) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}
