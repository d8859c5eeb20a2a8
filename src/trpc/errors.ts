// Where the service's errors (src/lib/errors.ts) become tRPC's: once, in the procedures'
// middleware (src/trpc/core.ts), so the server caller, /trpc and the REST layer (which calls
// through the caller) all see the same code and message.
import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { AppError, type ErrorKind, translateDatabaseError } from '../lib/errors.ts';

const CODE_BY_KIND: Record<ErrorKind, TRPC_ERROR_CODE_KEY> = {
  badRequest: 'BAD_REQUEST',
  unauthorized: 'UNAUTHORIZED',
  sessionRequired: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  notFound: 'NOT_FOUND',
  tooLarge: 'PAYLOAD_TOO_LARGE',
  tooManyRequests: 'TOO_MANY_REQUESTS',
  unavailable: 'SERVICE_UNAVAILABLE',
  storageFull: 'SERVICE_UNAVAILABLE',
  notConfigured: 'SERVICE_UNAVAILABLE',
  badGateway: 'BAD_GATEWAY',
};

/** The TRPCError for an AppError: its code, the same message, and the AppError as its cause (where the REST layer reads the kind). */
export const toTRPCError = (error: AppError): TRPCError => new TRPCError({ code: CODE_BY_KIND[error.kind], message: error.message, cause: error });

/**
 * The TRPCError a procedure's failure becomes, given what it threw (tRPC's wrapper's `cause`):
 * an AppError, or a database or resource failure a client can act on (translateDatabaseError);
 * undefined for anything else, which stays as it is.
 */
export function trpcErrorFor(thrown: unknown): TRPCError | undefined {
  if (thrown instanceof AppError) return toTRPCError(thrown);
  const translated = translateDatabaseError(thrown);
  return translated && toTRPCError(translated);
}
