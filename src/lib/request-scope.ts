// Which request (or which job) the code running now works for, without passing it down every call.
//
// Jobs are queued from deep inside operations, mail helpers and other jobs (src/db/jobs.ts,
// src/mail/queue.ts), all of which know an entity manager but not the HTTP request; threading a
// request id through each of their signatures would touch dozens of functions for one log field.
// So the id travels in an AsyncLocalStorage inside a process: the HTTP layer enters a scope for
// each request (src/http/request-log.ts), the worker one for each job (workers/job-log.ts). Between
// processes it travels in the one thing that crosses the queue, the job's payload, as
// `_requestId` (named like graphile-worker's own `_cron`; every task's payload schema ignores it).
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestScope {
  /** The request's id (X-Request-Id), or, in a job, the id of the request that queued it (none for scheduled jobs). */
  requestId?: string;
  /** The signed-in caller, once a procedure has checked their credentials. */
  userId?: number;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/** Runs `fn` (and everything it starts) in `scope`. */
export function inScope<T>(scope: RequestScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

export function currentScope(): RequestScope | undefined {
  return scopes.getStore();
}

/** Records who the current request is for (its log line shows the user id). */
export function noteCaller(userId: number): void {
  const scope = scopes.getStore();
  if (scope) scope.userId = userId;
}

/** The payload field that carries the request id into a job. */
export const REQUEST_ID_FIELD = '_requestId';

/** The payload with the current request's id added, when there is one. */
export function withRequestId<T extends object>(payload: T): T {
  const requestId = scopes.getStore()?.requestId;
  return requestId ? { ...payload, [REQUEST_ID_FIELD]: requestId } : payload;
}

/** The request id a job's payload carries, if any. */
export function requestIdOf(payload: unknown): string | undefined {
  const value = payload && typeof payload === 'object' ? (payload as Record<string, unknown>)[REQUEST_ID_FIELD] : undefined;
  return typeof value === 'string' ? value : undefined;
}
