import { TRPCError } from '@trpc/server';
import {
  ForeignKeyConstraintViolationException,
  NotNullConstraintViolationException,
  UniqueConstraintViolationException,
  CheckConstraintViolationException,
} from '@mikro-orm/core';
import { z, ZodError } from 'zod';
import { DATABASE_BUSY, DATABASE_UNAVAILABLE, RETRY_AFTER_SECONDS, isDatabaseBusy, isDatabaseUnavailable } from '../db/unavailable.ts';
import { OUT_OF_FILE_HANDLES, isOutOfFileHandles } from '../lib/file-handles.ts';
import { storageFault } from '../storage/faults.ts';

/**
 * Carries a status that tRPC's codes cannot express (419 for missing or expired credentials,
 * 401 for a failed sign-in). The REST layer answers with it; tRPC clients see the code.
 */
export class LegacyStatus extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Seconds a client should wait before trying again; the REST layer sends it as `Retry-After`. */
    readonly retryAfter?: number,
    /** What went wrong underneath, for the log. */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

/**
 * The service cannot do this now, through no fault of the request: 503 with `Retry-After` (or
 * `status`, e.g. 507 for full storage); tRPC clients see SERVICE_UNAVAILABLE.
 */
export const serviceUnavailable = (message: string, cause?: unknown, status = 503) =>
  new TRPCError({ code: 'SERVICE_UNAVAILABLE', message, cause: new LegacyStatus(status, message, status === 503 ? RETRY_AFTER_SECONDS : undefined, cause) });

/** A feature the operator has not configured (e.g. LTI without LTI_KEY_SECRET): 503, with no `Retry-After` since waiting will not help. */
export const notConfigured = (message: string) => new TRPCError({ code: 'SERVICE_UNAVAILABLE', message, cause: new LegacyStatus(503, message) });

/** A service the request depends on (an LMS) refused or failed to answer: 502; tRPC clients see BAD_GATEWAY. */
export const badGateway = (message: string) => new TRPCError({ code: 'BAD_GATEWAY', message, cause: new LegacyStatus(502, message) });

export const badRequest = (message: string) => new TRPCError({ code: 'BAD_REQUEST', message });
export const forbidden = (message: string) => new TRPCError({ code: 'FORBIDDEN', message });
export const notFound = (message: string) => new TRPCError({ code: 'NOT_FOUND', message });
export const unauthorized = (message: string) => new TRPCError({ code: 'UNAUTHORIZED', message, cause: new LegacyStatus(401, message) });
/** 429 with a `Retry-After` of this many seconds (REST); tRPC clients see TOO_MANY_REQUESTS. */
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new TRPCError({ code: 'TOO_MANY_REQUESTS', message, cause: new LegacyStatus(429, message, retryAfterSeconds) });
/** Credentials missing, wrong or expired: the web client signs out and returns to sign-in on 419. */
export const sessionRequired = (message: string) => new TRPCError({ code: 'UNAUTHORIZED', message, cause: new LegacyStatus(419, message) });

export const NO_CREDENTIALS = 'No authentication details provided. Authentication is required to access this resource.';

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

/**
 * Text PostgreSQL cannot take: a NUL byte, which the driver's protocol cannot even carry (08P01
 * "invalid message format"; checked before the 08 class counts as a lost connection), or a
 * character the encoding lacks (22021, 22P05). Input with a NUL byte is refused before it gets
 * this far; this is the net behind that check.
 */
const UNSTORABLE_TEXT = new Set(['08P01', '22021', '22P05']);
const UNSTORABLE_MESSAGE = 'Validation failed: a value contains a character that cannot be stored (such as a NUL byte)';

const INTEGRITY = 'This operation has been rejected as it would break data integrity. Ensure that related values are deleted or updated before trying again.';

/**
 * Maps database constraint failures to the 400 answers a user can act on, and a database that
 * cannot be reached to 503 (so clients retry); anything else passes through.
 */
export function translateDatabaseError(error: unknown): TRPCError | undefined {
  if (error instanceof UniqueConstraintViolationException) {
    const detail = /Key \(([^)]+)\)=\(([^)]*)\)/.exec(String((error as { detail?: string }).detail ?? error.message));
    const field = detail ? detail[1].split(',').pop()!.trim().replace(/_id$/, '').replace(/_/g, ' ') : 'value';
    const label = field.charAt(0).toUpperCase() + field.slice(1);
    return new TRPCError({ code: 'BAD_REQUEST', message: `Validation failed: ${label} has already been taken`, cause: error });
  }
  if (error instanceof ForeignKeyConstraintViolationException) {
    return new TRPCError({ code: 'BAD_REQUEST', message: INTEGRITY, cause: error });
  }
  if (error instanceof NotNullConstraintViolationException || error instanceof CheckConstraintViolationException) {
    return new TRPCError({ code: 'BAD_REQUEST', message: `Validation failed: ${error.message.split('\n')[0]}`, cause: error });
  }
  if (error && typeof error === 'object' && UNSTORABLE_TEXT.has(String((error as { code?: unknown }).code))) {
    return new TRPCError({ code: 'BAD_REQUEST', message: UNSTORABLE_MESSAGE, cause: error });
  }
  return translateResourceError(error);
}

/**
 * What the machine or the services under it cannot give right now, each a 503 (or 507) with its
 * own message: no file descriptor left (checked first: a database connect failing with EMFILE is
 * not the database's fault), a pool whose connections all stayed busy, a database that cannot be
 * reached, storage full or not writable.
 */
export function translateResourceError(error: unknown): TRPCError | undefined {
  if (error instanceof TRPCError && error.cause instanceof LegacyStatus) return undefined;
  if (isOutOfFileHandles(error)) return serviceUnavailable(OUT_OF_FILE_HANDLES, error);
  if (isDatabaseBusy(error)) return serviceUnavailable(DATABASE_BUSY, error);
  if (isDatabaseUnavailable(error)) return serviceUnavailable(DATABASE_UNAVAILABLE, error);
  const fault = storageFault(error);
  if (fault) return serviceUnavailable(fault.message, error, fault.status);
  return undefined;
}

const STATUS_BY_CODE: Record<string, number> = {
  BAD_REQUEST: 400,
  PARSE_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  CONFLICT: 400,
  PRECONDITION_FAILED: 400,
  PAYLOAD_TOO_LARGE: 413,
  UNPROCESSABLE_CONTENT: 400,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
};

export const GENERIC_FAILURE = 'Sorry... something went wrong with your request.';

export interface LegacyAnswer {
  status: number;
  message: string;
  unexpected: boolean;
  /** Seconds for `Retry-After`, when the answer has one. */
  retryAfter?: number;
}

/** The legacy status and message for any error a procedure raised. */
export function legacyError(error: unknown): LegacyAnswer {
  if (error instanceof TRPCError) {
    if (error.cause instanceof LegacyStatus) return fromLegacyStatus(error.cause, error.message);
    if (error.cause instanceof ZodError) return { status: 400, message: describeZodError(error.cause), unexpected: false };
    const translated = translateDatabaseError(error.cause);
    if (translated) return fromTranslated(translated);
    const status = STATUS_BY_CODE[error.code];
    if (status) return { status, message: error.message, unexpected: false };
  }
  const translated = translateDatabaseError(error);
  if (translated) return fromTranslated(translated);
  return { status: 500, message: GENERIC_FAILURE, unexpected: true };
}

function fromLegacyStatus(cause: LegacyStatus, message: string): LegacyAnswer {
  const answer: LegacyAnswer = { status: cause.status, message, unexpected: false };
  if (cause.retryAfter !== undefined) answer.retryAfter = cause.retryAfter;
  return answer;
}

function fromTranslated(translated: TRPCError): LegacyAnswer {
  if (translated.cause instanceof LegacyStatus) return fromLegacyStatus(translated.cause, translated.message);
  return { status: STATUS_BY_CODE[translated.code] ?? 400, message: translated.message, unexpected: false };
}
