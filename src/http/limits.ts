// How long a client may take: headers within 30 s; a body within REQUEST_BODY_TIMEOUT_SECONDS
// (60) on every route, or UPLOAD_BODY_TIMEOUT_SECONDS (600) on upload routes, whose credentials
// are checked before the body is read (a student sending 10 MB over a slow link needs minutes;
// anyone without credentials gets 419 at once); a connection silent for 2 minutes is closed; an
// idle keep-alive connection is kept 72 s (longer than the usual proxy's 60 s, so the proxy
// closes first and never sends on a socket being closed). Without these a client that trickles a
// body held its connection, and a file descriptor, for ever.
import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

const HEADERS_TIMEOUT_MS = 30_000;
const IDLE_TIMEOUT_MS = 120_000;
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/** What a route may declare about its body in its Fastify `config`. */
export interface BodyAllowance {
  /** An upload route: its body may take the upload allowance. */
  upload?: boolean;
}

/** The Fastify server options that bound connections; Node's own checks back up the per-route deadline. */
export function connectionLimits(config: Pick<Config, 'http'>): Partial<FastifyServerOptions> {
  return {
    connectionTimeout: IDLE_TIMEOUT_MS,
    clientErrorHandler: answerClientError,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // Node answers 408 and closes a request not received whole within this: the longest allowance.
    requestTimeout: Math.max(config.http.bodyTimeoutMs, config.http.uploadBodyTimeoutMs) + HEADERS_TIMEOUT_MS,
  };
}

/**
 * Cuts the connection of a request whose body has not arrived whole within its route's allowance
 * (Node's requestTimeout is one value for the whole server, and upload routes need longer).
 */
export function limitBodyTime(app: FastifyInstance, config: Pick<Config, 'http'>): void {
  app.server.headersTimeout = HEADERS_TIMEOUT_MS;
  const cuts = new WeakMap<object, NodeJS.Timeout>();
  app.addHook('onRequest', async (request) => {
    const req = request.raw;
    const length = request.headers['content-length'];
    const body = (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
    if (req.complete || !body) return;
    const upload = (request.routeOptions.config as BodyAllowance | undefined)?.upload === true;
    const cut = setTimeout(
      () => {
        if (!req.complete) req.socket?.destroy?.();
      },
      upload ? config.http.uploadBodyTimeoutMs : config.http.bodyTimeoutMs,
    );
    cut.unref();
    cuts.set(request, cut);
    const done = () => clearTimeout(cut);
    req.once('end', done);
    req.once('close', done);
  });
  // Answered: a body still arriving is the lingering read's to cut (compat/bodies.ts).
  app.addHook('onResponse', async (request) => clearTimeout(cuts.get(request)));
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request did not arrive in time.'],
  ERR_HTTP_REQUEST_HEADERS_TIMEOUT: [408, 'The request headers did not arrive in time.'],
};

/**
 * Requests Node refuses before Fastify sees them (headers too large, too slow, unparsable) get an
 * `{"error"}` answer with `Connection: close`, so the client knows not to send on that
 * connection again; then the connection is closed. What the client still sends meanwhile is read
 * and dropped for a moment, so that closing does not reset the connection before the answer is read.
 */
export function answerClientError(error: Error & { code?: string }, socket: import('node:net').Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (!socket.writable) return void socket.destroy();
  const [status, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'The request is malformed.'];
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.resume();
  setTimeout(() => socket.destroy(), 5_000).unref();
}
