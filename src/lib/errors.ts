// The one error type that operations, workers, scope builders and procedures raise, whoever calls
// them: a kind, the message the client sees, and for some kinds the seconds to wait. It belongs to
// no transport: src/trpc/errors.ts maps it to a TRPCError (the code tRPC clients see) and
// compat/errors.ts to the legacy status, `{"error": message}` body and `Retry-After`.
// Database, storage and file-table failures become AppErrors in src/db/translate-errors.ts.
import { z, type ZodError } from 'zod';

/** Seconds a client is asked to wait (`Retry-After`) before trying again after a 503. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * What went wrong, as the client should read it. The REST status and the tRPC code of each:
 *
 * | kind | REST | tRPC |
 * |---|---|---|
 * | `badRequest` | 400 | BAD_REQUEST |
 * | `unauthorized` (a failed sign-in) | 401 | UNAUTHORIZED |
 * | `sessionRequired` (credentials missing, wrong or expired) | 419 | UNAUTHORIZED |
 * | `forbidden` | 403 | FORBIDDEN |
 * | `notFound` | 404 | NOT_FOUND |
 * | `tooLarge` | 413 | PAYLOAD_TOO_LARGE |
 * | `tooManyRequests` | 429 + `Retry-After` | TOO_MANY_REQUESTS |
 * | `unavailable` (busy, not reachable) | 503 + `Retry-After` | SERVICE_UNAVAILABLE |
 * | `storageFull` | 507 | SERVICE_UNAVAILABLE |
 * | `notConfigured` | 503 | SERVICE_UNAVAILABLE |
 * | `badGateway` | 502 | BAD_GATEWAY |
 */
export type ErrorKind =
  | 'badRequest'
  | 'unauthorized'
  | 'sessionRequired'
  | 'forbidden'
  | 'notFound'
  | 'tooLarge'
  | 'tooManyRequests'
  | 'unavailable'
  | 'storageFull'
  | 'notConfigured'
  | 'badGateway';

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly kind: ErrorKind,
    /** What the client is told. */
    message: string,
    options: {
      /** Seconds a client should wait before trying again (`Retry-After` over REST). */
      retryAfter?: number;
      /** What went wrong underneath, for the log; never sent. */
      cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (options.retryAfter !== undefined) this.retryAfter = options.retryAfter;
  }
  readonly retryAfter?: number;
}

const SERVICE_FAULTS = new Set<ErrorKind>(['unavailable', 'storageFull', 'notConfigured', 'badGateway']);

/** Whether the service is at fault (a 5xx: waiting or the operator may mend it) rather than the request (a 4xx). */
export const isServiceFault = (error: AppError): boolean => SERVICE_FAULTS.has(error.kind);

export const badRequest = (message: string) => new AppError('badRequest', message);
export const forbidden = (message: string) => new AppError('forbidden', message);
export const notFound = (message: string) => new AppError('notFound', message);
/** A failed sign-in: 401. */
export const unauthorized = (message: string) => new AppError('unauthorized', message);
/** Credentials missing, wrong or expired: the web client signs out and returns to sign-in on 419. */
export const sessionRequired = (message: string) => new AppError('sessionRequired', message);
/** A body or attachment over its limit: 413. */
export const tooLarge = (message: string) => new AppError('tooLarge', message);
/** 429 with a `Retry-After` of this many seconds. */
export const tooManyRequests = (message: string, retryAfterSeconds: number) => new AppError('tooManyRequests', message, { retryAfter: retryAfterSeconds });

/**
 * The service cannot do this now, through no fault of the request: 503 with `Retry-After`, or 507
 * (no `Retry-After`) for full storage.
 */
export const serviceUnavailable = (message: string, cause?: unknown, status: 503 | 507 = 503) =>
  status === 507 ? new AppError('storageFull', message, { cause }) : new AppError('unavailable', message, { retryAfter: RETRY_AFTER_SECONDS, cause });

/** A feature the operator has not configured (e.g. LTI without LTI_KEY_SECRET): 503, with no `Retry-After` since waiting will not help. */
export const notConfigured = (message: string) => new AppError('notConfigured', message);

/** Another system the request relies on (e.g. an LMS) failed or answered something unusable: 502. */
export const badGateway = (message: string) => new AppError('badGateway', message);

export const NO_CREDENTIALS = 'No authentication details provided. Authentication is required to access this resource.';

/** What a client is told of an unexpected error (a 500), whatever it was; the log has the rest. */
export const GENERIC_FAILURE = 'Sorry... something went wrong with your request.';

/** Turns an issue path like ['campus', 'name'] into the form key `campus[name]`. */
export function formKey(path: readonly PropertyKey[]): string {
  const [head, ...rest] = path.map(String);
  return (head ?? 'body') + rest.map((p) => `[${p}]`).join('');
}

/**
 * Grape-style messages: "campus[name] is missing", "year is invalid". Zod's own wording is
 * replaced; messages our fields set themselves ("is empty") are kept after the key.
 */
export function describeZodError(error: ZodError): string {
  const messages = error.issues.map((issue) => {
    const key = formKey(issue.path);
    return issue.message.startsWith('is ') ? `${key} ${issue.message}` : `${key} is invalid`;
  });
  return [...new Set(messages)].join(', ');
}

// A value that is absent altogether is "missing" whatever type was expected.
z.config({ customError: (issue) => (issue.input === undefined ? 'is missing' : undefined) });
