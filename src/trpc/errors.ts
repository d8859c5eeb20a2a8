// Where the service's errors (src/lib/errors.ts) become tRPC's: once, in the procedures'
// middleware (src/trpc/core.ts), so the server caller, /trpc and the REST layer (which calls
// through the caller) all see the same code and message; and what an error answer over /trpc
// carries (its message and code, never a stack).
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { translateDatabaseError } from '../db/translate-errors.ts';
import { AppError, type ErrorKind, GENERIC_FAILURE } from '../lib/errors.ts';

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

interface ErrorShape {
  message: string;
  code: number;
  data: { code: TRPC_ERROR_CODE_KEY; httpStatus: number; path?: string; stack?: string };
}

/**
 * What an error answer over /trpc says (initTRPC's `errorFormatter`): tRPC's shape without the
 * stack (initTRPC's `isDev: false` leaves it out too), and for an unexpected error (code
 * INTERNAL_SERVER_ERROR) only the generic message: its own may name tables or code. The REST
 * layer answers the same message for it. An AppError that met no middleware on its way (one
 * raised while a subscription streams) still answers its own code and message.
 */
export function errorShape({ shape, error }: { shape: ErrorShape; error: TRPCError }): ErrorShape {
  const { stack: _stack, ...data } = shape.data;
  if (error.code !== 'INTERNAL_SERVER_ERROR') return { ...shape, data };
  if (error.cause instanceof AppError) {
    const mapped = toTRPCError(error.cause);
    return {
      message: mapped.message,
      code: TRPC_ERROR_CODES_BY_KEY[mapped.code],
      data: { ...data, code: mapped.code, httpStatus: getHTTPStatusCodeFromError(mapped) },
    };
  }
  return { ...shape, message: GENERIC_FAILURE, data };
}
