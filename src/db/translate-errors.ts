// Failures of the database, the storage and the machine that a client can act on (or wait out),
// as the service's one error type (src/lib/errors.ts); everything else is left to the caller.
import {
  CheckConstraintViolationException,
  ForeignKeyConstraintViolationException,
  NotNullConstraintViolationException,
  UniqueConstraintViolationException,
} from '@mikro-orm/core';
import { AppError, serviceUnavailable } from '../lib/errors.ts';
import { OUT_OF_FILE_HANDLES, isOutOfFileHandles } from '../lib/file-handles.ts';
import { storageFault } from '../storage/faults.ts';
import { DATABASE_BUSY, DATABASE_UNAVAILABLE, isDatabaseBusy, isDatabaseUnavailable } from './unavailable.ts';

/**
 * Text PostgreSQL cannot take: a NUL byte, which the driver's protocol cannot even carry (08P01
 * "invalid message format"; checked before the 08 class counts as a lost connection), or a
 * character the encoding lacks (22021, 22P05). Input with a NUL byte is refused before it gets
 * this far; this is the net behind that check.
 */
const UNSTORABLE_TEXT = new Set(['08P01', '22021', '22P05']);
const UNSTORABLE_MESSAGE = 'Validation failed: a value contains a character that cannot be stored (such as a NUL byte)';

/**
 * A number too large for its column or parameter (22003 "value ... is out of range for type
 * integer"): an id past PostgreSQL's integer range in a path or query, or a count in a body. Such a
 * row cannot exist and such a value cannot be stored, so it is the client's mistake, never a 500.
 */
const OUT_OF_RANGE = '22003';
const OUT_OF_RANGE_MESSAGE = 'Validation failed: a number is out of range';

const INTEGRITY = 'This operation has been rejected as it would break data integrity. Ensure that related values are deleted or updated before trying again.';

/**
 * Maps database constraint failures to the 400 answers a user can act on, and a database that
 * cannot be reached to 503 (so clients retry); anything else (an AppError already among it) is
 * left to the caller: undefined.
 */
export function translateDatabaseError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return undefined;
  if (error instanceof UniqueConstraintViolationException) {
    const detail = /Key \(([^)]+)\)=\(([^)]*)\)/.exec(String((error as { detail?: string }).detail ?? error.message));
    const field = detail ? detail[1].split(',').pop()!.trim().replace(/_id$/, '').replace(/_/g, ' ') : 'value';
    const label = field.charAt(0).toUpperCase() + field.slice(1);
    return new AppError('badRequest', `Validation failed: ${label} has already been taken`, { cause: error });
  }
  if (error instanceof ForeignKeyConstraintViolationException) {
    return new AppError('badRequest', INTEGRITY, { cause: error });
  }
  if (error instanceof NotNullConstraintViolationException || error instanceof CheckConstraintViolationException) {
    return new AppError('badRequest', `Validation failed: ${error.message.split('\n')[0]}`, { cause: error });
  }
  if (error && typeof error === 'object' && UNSTORABLE_TEXT.has(String((error as { code?: unknown }).code))) {
    return new AppError('badRequest', UNSTORABLE_MESSAGE, { cause: error });
  }
  if (error && typeof error === 'object' && String((error as { code?: unknown }).code) === OUT_OF_RANGE) {
    return new AppError('badRequest', OUT_OF_RANGE_MESSAGE, { cause: error });
  }
  return translateResourceError(error);
}

/**
 * What the machine or the services under it cannot give right now, each a 503 (or 507) with its
 * own message: no file descriptor left (checked first: a database connect failing with EMFILE is
 * not the database's fault), a pool whose connections all stayed busy, a database that cannot be
 * reached, storage full or not writable. An AppError is already what the client should read.
 */
export function translateResourceError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return undefined;
  if (isOutOfFileHandles(error)) return serviceUnavailable(OUT_OF_FILE_HANDLES, error);
  if (isDatabaseBusy(error)) return serviceUnavailable(DATABASE_BUSY, error);
  if (isDatabaseUnavailable(error)) return serviceUnavailable(DATABASE_UNAVAILABLE, error);
  const fault = storageFault(error);
  if (fault) return serviceUnavailable(fault.message, error, fault.status);
  return undefined;
}
