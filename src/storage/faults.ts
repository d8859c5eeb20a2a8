// The file store's disk full or not writable is an operator's problem, not a bug in the request:
// it answers 507 (full) or 503 (read-only, no permission) naming the cause, and readiness probes
// the store (src/http/health.ts) so that a load balancer hears of it too. Atomic writes (local.ts)
// mean nothing half-written is left either way.
import { codeIn } from '../lib/error-chain.ts';

export const STORAGE_FULL = 'Storage is full: there is no space left to save the file. Please try again later.';
export const STORAGE_READ_ONLY = 'Storage cannot be written at the moment (read-only file system). Please try again later.';
export const STORAGE_NO_PERMISSION = 'Storage cannot be written at the moment (permission denied). Please try again later.';
export const STORAGE_UNREACHABLE = 'Storage cannot be reached at the moment. Please try again later.';

// PostgreSQL's disk_full (53100) is the same trouble for the operator.
const FULL = new Set(['ENOSPC', 'EDQUOT', '53100']);
const READ_ONLY = new Set(['EROFS']);
const NO_PERMISSION = new Set(['EACCES', 'EPERM']);
// Object storage (s3.ts) that does not answer, or answers with a server error.
const UNREACHABLE = new Set(['STORAGE_UNAVAILABLE']);

/** 507 or 503 and the message for a storage error, or undefined for any other error. */
export function storageFault(error: unknown): { status: 503 | 507; message: string } | undefined {
  if (codeIn(error, FULL)) return { status: 507, message: STORAGE_FULL };
  if (codeIn(error, READ_ONLY)) return { status: 503, message: STORAGE_READ_ONLY };
  if (codeIn(error, NO_PERMISSION)) return { status: 503, message: STORAGE_NO_PERMISSION };
  if (codeIn(error, UNREACHABLE)) return { status: 503, message: STORAGE_UNREACHABLE };
  return undefined;
}
