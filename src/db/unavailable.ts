import { anyCause } from '../lib/error-chain.ts';

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
  // One attempt to connect ran out of time (src/db/orm.ts, DATABASE_CONNECT_TIMEOUT_SECONDS).
  /^timeout expired$/,
  /Cannot use a pool after calling end/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

export const DATABASE_UNAVAILABLE = 'The database is not available at the moment. Please try again shortly.';

export const DATABASE_BUSY = 'The service is busy; please try again shortly.';

export function isDatabaseUnavailable(error: unknown): boolean {
  return anyCause(error, (e) => CODES.has(String(e.code ?? '')) || MESSAGES.some((m) => m.test(String(e.message ?? ''))));
}

/**
 * Every connection of the pool stayed busy for as long as a query may wait for one
 * (DATABASE_QUEUE_TIMEOUT_SECONDS): the database is there, only slow to get to. pg-pool says so
 * with this message; a failed attempt to connect says something else (above).
 */
export function isDatabaseBusy(error: unknown): boolean {
  return anyCause(error, (e) => /timeout exceeded when trying to connect/i.test(String(e.message ?? '')));
}
