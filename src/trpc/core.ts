import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { findSession, type Caller, type Session } from '../operations/auth/session-tokens.ts';
import { jobQueue } from '../db/jobs.ts';
import { noteCaller } from '../lib/request-scope.ts';
import type { Context } from './context.ts';
import type { Config } from '../config.ts';
import { AdmissionTimeout } from '../db/admission.ts';
import { DATABASE_BUSY, DATABASE_UNAVAILABLE } from '../db/unavailable.ts';
import { NO_CREDENTIALS, serviceUnavailable, sessionRequired } from '../lib/errors.ts';
import { translateDatabaseError } from '../db/translate-errors.ts';
import { errorShape, toTRPCError, trpcErrorFor } from './errors.ts';
import { rejectNulBytes } from './input-guard.ts';

/** How the REST layer answers for a procedure, beyond what OpenAPI meta says. */
export interface RestMeta {
  /** Success status; defaults to 201 for POST and 200 otherwise. */
  status?: number;
  /** The procedure returns a FileResult and the response is its bytes. */
  file?: boolean;
  /** The procedure returns a string that is sent as text/plain. */
  text?: boolean;
  /** The procedure returns `{location}` and the response is a redirect there (status 302 unless `status` says otherwise). */
  redirect?: boolean;
  /**
   * The procedure returns an HTML document (a page a browser is sent to: an LTI launch, a registration
   * or deep-linking choice). Its errors are pages too when the browser asks for HTML. With `redirect`
   * too, it returns either a page (answered with `status`) or `{location}` (answered 302).
   */
  html?: boolean;
  /**
   * With `html`: the page's own Content-Security-Policy, instead of the LTI pages' (inline scripts
   * for their auto-submitting forms). The SCORM player's page allows only its static script files.
   */
  csp?: string;
  /**
   * Further routes that real clients are known to send for this operation (e.g. the web
   * client's POST to a teaching period's address when editing it). Not in the OpenAPI document.
   */
  aliases?: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: `/${string}` }[];
  /**
   * The operation takes files (multipart). Each is streamed to a temporary file; together they
   * may hold at most `maxBytes` (default MAX_UPLOAD_BYTES), and a larger upload gets 413.
   * Operations without this refuse file parts.
   */
  upload?: { maxBytes?: number | ((config: Config) => number) };
  /**
   * Error statuses the operation answers beyond those its route implies (input 400, credentials 419,
   * a refused role 403, an unknown record in the path 404, a body 413, the database away 503): e.g.
   * sign-in's 401 and 429. The OpenAPI document lists them, so a typed client knows its errors.
   */
  errors?: number[];
  /**
   * The path's last parameter takes the rest of the path, slashes included (a file inside a
   * SCORM package: `/api/scorm/{...}/{file_path}`).
   */
  tail?: string;
}

export type Meta = OpenApiMeta<{ rest?: RestMeta }>;

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    // An error answers its message and code only, in every environment: never the server's stack.
    isDev: false,
    errorFormatter: errorShape,
    // Subscriptions over server-sent events (src/live): a ping comment every 15 s keeps an idle
    // stream well inside the server's 120 s idle limit (src/http/limits.ts) and a proxy's 60 s;
    // a client that hears nothing for 45 s reconnects, with the last event id it saw.
    sse: { ping: { enabled: true, intervalMs: 15_000 }, client: { reconnectAfterInactivityMs: 45_000 } },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * The one place a procedure's errors become tRPC's (src/trpc/errors.ts): an AppError raised by an
 * operation or a scope builder gets its code, and database constraint failures become 400s a
 * user can act on, whichever procedure hit them.
 */
const translateErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const translated = trpcErrorFor(result.error.cause);
    if (translated) throw translated;
  }
  return result;
});

/** A NUL byte in any string of the input is a 400 naming the field, before a schema or the database sees it. */
const noNulBytes = t.middleware(async ({ getRawInput, next }) => {
  rejectNulBytes(await getRawInput());
  return next();
});

/**
 * Waits for a turn with the database (src/db/admission.ts) before anything else, the session
 * lookup included; a request still waiting after DATABASE_QUEUE_TIMEOUT_SECONDS gets 503 "busy"
 * (or "not available", when the requests before it found the database unreachable).
 */
const admitted = t.middleware(async ({ ctx, next }) => {
  if (ctx.admitted || !ctx.admission) return next();
  try {
    return await ctx.admission.run(
      () => next({ ctx: { admitted: true } }),
      (result) => (result.ok ? undefined : (result.error.cause ?? result.error)),
    );
  } catch (error) {
    if (error instanceof AdmissionTimeout) throw toTRPCError(serviceUnavailable(error.databaseUnavailable ? DATABASE_UNAVAILABLE : DATABASE_BUSY, error));
    throw error;
  }
});

export const publicProcedure = t.procedure.use(admitted).use(translateErrors).use(noNulBytes);

export async function resolveCaller(ctx: Context): Promise<{ user: Caller; session: Session }> {
  const { username, token } = ctx.credentials;
  if (!username || !token) throw sessionRequired(NO_CREDENTIALS);
  const found = await findSession(ctx.em, username, token, ctx.clock.now(), ctx.sessions);
  if (found.kind === 'expired') throw sessionRequired('Authentication token expired.');
  if (found.kind === 'invalid') throw sessionRequired(NO_CREDENTIALS);
  // The request's log line names the caller (src/http/request-log.ts).
  noteCaller(found.user.id);
  return { user: found.user, session: found.session };
}

/** Requires valid credentials (419 otherwise) and puts the caller in the context. */
export const authedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const caller = await resolveCaller(ctx);
  return next({ ctx: { ...ctx, ...caller } });
});

/** Public, but knows the caller when valid credentials are presented (e.g. to compute `my_role`). */
export const optionalAuthProcedure = publicProcedure.use(async ({ ctx, next }) => {
  let user: Caller | null = null;
  if (ctx.credentials.username && ctx.credentials.token) {
    const found = await findSession(ctx.em, ctx.credentials.username, ctx.credentials.token, ctx.clock.now(), ctx.sessions);
    if (found.kind === 'valid') {
      user = found.user;
      noteCaller(user.id);
    }
  }
  return next({ ctx: { ...ctx, user } });
});

/**
 * Runs the rest of the procedure in one transaction: on any error nothing is written and no
 * job is queued. Jobs added through `ctx.jobs` join the same transaction, and `ctx.afterCommit`
 * hooks run only once it has committed.
 */
export const inTransaction = t.middleware(async ({ ctx, next }) => {
  let result: Awaited<ReturnType<typeof next>> | undefined;
  const committed: (() => void)[] = [];
  try {
    await ctx.em.transactional(async (em) => {
      result = await next({ ctx: { ...ctx, em, jobs: jobQueue(em), afterCommit: (fn: () => void) => void committed.push(fn) } });
      if (!result.ok) throw result.error;
    });
  } catch (error) {
    if (result && !result.ok) return result;
    throw translateDatabaseError(error) ?? error;
  }
  for (const fn of committed) fn();
  return result!;
});

export const authedMutation = authedProcedure.use(inTransaction);
export const publicMutation = publicProcedure.use(inTransaction);

export { TRPCError };
