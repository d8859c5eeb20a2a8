// One log line per request, and the request id that ties it to everything else the request caused
// (docs/operating/logs.md). Fastify's own two lines per request are off (disableRequestLogging in
// src/app.ts); this one is written when the answer has gone out.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { inScope, type RequestScope } from '../lib/request-scope.ts';
import type { RouteOf } from './route-pattern.ts';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What a caller's X-Request-Id may be to be kept: a proxy's or a client's trace id (UUIDs, hex,
 * base64, `host/123`), at most 128 characters. Anything else (spaces, quotes, control characters,
 * a kilobyte of text) could forge or bloat log lines, and is replaced by a fresh id.
 */
const ACCEPTED_ID = /^[A-Za-z0-9._~:/+=@-]{1,128}$/;

/** Fastify's genReqId: the caller's X-Request-Id when it is acceptable, else a new UUID. */
export function requestIdFor(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && ACCEPTED_ID.test(given) ? given : randomUUID();
}

/** Echoes the request id on every answer, keeps it in scope for the request's work, and logs the request line. */
export function registerRequestLog(app: FastifyInstance, routeOf: RouteOf): void {
  const scopes = new WeakMap<FastifyRequest, RequestScope>();
  // The first hook: later hooks, errors and the 404 handler all answer with the header set.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    const scope: RequestScope = { requestId: request.id };
    scopes.set(request, scope);
    inScope(scope, done);
  });
  // Again once the body is read: the body's stream events run outside the scope entered above.
  app.addHook('preHandler', (request, _reply, done) => {
    const scope = scopes.get(request);
    if (scope) inScope(scope, done);
    else done();
  });
  app.addHook('onResponse', async (request, reply) => {
    const line = {
      method: request.method,
      route: routeOf(request),
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
      userId: scopes.get(request)?.userId,
    };
    // 5xx at warn, so that LOG_LEVEL=warn still shows the requests that failed on our side.
    if (reply.statusCode >= 500) request.log.warn(line, 'request completed');
    else request.log.info(line, 'request completed');
  });
}
