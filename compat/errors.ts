// Where errors become the legacy answers: the status, `{"error": message}` and `Retry-After` the
// web client reads. Once, for every route: an AppError (src/lib/errors.ts) raised here or by a
// procedure (which the tRPC caller hands back as a TRPCError caused by it), a schema's ZodError, a
// database failure, or anything else, which is a 500 with the generic message.
import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { translateDatabaseError } from '../src/db/translate-errors.ts';
import { AppError, type ErrorKind, GENERIC_FAILURE, describeZodError } from '../src/lib/errors.ts';

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  badRequest: 400,
  unauthorized: 401,
  sessionRequired: 419,
  forbidden: 403,
  notFound: 404,
  tooLarge: 413,
  tooManyRequests: 429,
  unavailable: 503,
  storageFull: 507,
  notConfigured: 503,
  badGateway: 502,
};

/** tRPC's own refusals (a TRPCError not made from an AppError: input it could not parse, a method a procedure lacks). */
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

export interface LegacyAnswer {
  status: number;
  message: string;
  unexpected: boolean;
  /** Seconds for `Retry-After`, when the answer has one. */
  retryAfter?: number;
}

/** The legacy status and message for any error a route or its procedure raised. */
export function legacyError(error: unknown): LegacyAnswer {
  if (error instanceof AppError) return fromAppError(error);
  if (error instanceof TRPCError) {
    if (error.cause instanceof AppError) return fromAppError(error.cause);
    if (error.cause instanceof ZodError) return { status: 400, message: describeZodError(error.cause), unexpected: false };
    const translated = translateDatabaseError(error.cause);
    if (translated) return fromAppError(translated);
    const status = STATUS_BY_CODE[error.code];
    if (status) return { status, message: error.message, unexpected: false };
  }
  const translated = translateDatabaseError(error);
  if (translated) return fromAppError(translated);
  return { status: 500, message: GENERIC_FAILURE, unexpected: true };
}

function fromAppError(error: AppError): LegacyAnswer {
  const answer: LegacyAnswer = { status: STATUS_BY_KIND[error.kind], message: error.message, unexpected: false };
  if (error.retryAfter !== undefined) answer.retryAfter = error.retryAfter;
  return answer;
}
