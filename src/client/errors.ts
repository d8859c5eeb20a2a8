import { TRPCClientError } from '@trpc/client';
import type { ServerRouter } from './router.ts';

/**
 * A failed call to the course service, from the tRPC client or the REST helpers: `status` is the
 * HTTP status the REST API answers with (400, 401, 403, 404, 413, 419 session expired, 429, 503),
 * `error` the service's `{"error"}` message. A tRPC failure keeps tRPC's `data.code` and `shape`.
 */
export class CourseServiceError extends TRPCClientError<ServerRouter> {
  override readonly name = 'CourseServiceError';
  constructor(
    /** The REST status: 419 means the session expired (the client signs in again once, when it can). */
    readonly status: number,
    /** The service's message, as in the REST API's `{"error": "..."}`. */
    readonly error: string,
    cause?: TRPCClientError<ServerRouter>,
  ) {
    super(error, cause ? { cause, result: cause.shape ? { error: cause.shape } : undefined, meta: cause.meta } : undefined);
    // TRPCClientError's constructor sets its own prototype, which would make this a plain TRPCClientError.
    Object.setPrototypeOf(this, new.target.prototype);
  }

  /** The session ended or the credentials are wrong: sign in again. */
  get sessionExpired(): boolean {
    return this.status === 419;
  }
}

/** The REST status of a tRPC failure: the service's `data.status`, else the HTTP status, else 0 (no answer). */
export function statusOf(error: TRPCClientError<ServerRouter>): number {
  const data = error.data as { status?: number; httpStatus?: number } | undefined;
  return data?.status ?? data?.httpStatus ?? 0;
}

export function toCourseServiceError(error: unknown): CourseServiceError {
  if (error instanceof CourseServiceError) return error;
  if (error instanceof TRPCClientError) return new CourseServiceError(statusOf(error), error.message, error);
  return new CourseServiceError(0, error instanceof Error ? error.message : String(error), TRPCClientError.from(error as Error));
}

/** A REST answer that is not a success, as a CourseServiceError (its `{"error"}` body read). */
export async function restError(response: Response): Promise<CourseServiceError> {
  const text = await response.text().catch(() => '');
  let message = text || response.statusText;
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body.error === 'string') message = body.error;
  } catch {
    // not JSON: keep the text
  }
  return new CourseServiceError(response.status, message);
}
