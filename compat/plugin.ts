import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TRPCError, type AnyRouter } from '@trpc/server';
import { createContext, readCredentials, type Services } from '../src/trpc/context.ts';
import { createCallerFactory, resolveCaller } from '../src/trpc/core.ts';
import { GENERIC_FAILURE } from '../src/lib/errors.ts';
import { translateResourceError } from '../src/db/translate-errors.ts';
import { isStoredBytes, type FileResult, type StoredBytes } from '../src/lib/files.ts';
import { legacyError } from './errors.ts';
import { checkBodyHeaders, hasBody, multipartLimits } from './body-limits.ts';
import { procedureInput } from './input.ts';
import { MultipartBody } from './multipart.ts';
import { parseRange } from '../src/lib/byte-ranges.ts';
import { restRoutes, type RestRoute } from '../src/trpc/rest-routes.ts';
import { errorPage, sendHtml, wantsHtml } from './html.ts';

/** `page` names the product when the route answers pages (its errors become pages for browsers). */
function sendError(reply: FastifyReply, request: FastifyRequest, error: unknown, page?: string): FastifyReply {
  const { status, message, unexpected, retryAfter } = legacyError(error);
  if (unexpected) request.log.error({ err: error instanceof TRPCError ? (error.cause ?? error) : error }, 'unexpected error');
  if (retryAfter !== undefined) reply.header('Retry-After', String(retryAfter));
  // A page's error is a page for a browser (it was sent there by an LMS); API clients keep the JSON.
  if (page !== undefined && wantsHtml(request)) return sendHtml(reply.code(status), errorPage(page, status, message));
  return reply.code(status).type('application/json; charset=utf-8').send({ error: message });
}

/**
 * Characters a file name may use in the bare `filename=` form: RFC 7230 token characters, less
 * `'` (the web client's pattern deletes single quotes), `%` (some browsers percent-decode the
 * bare form) and `*` (no file system likes it).
 */
const BARE_NAME = /^[A-Za-z0-9!#$&+\-.^_`|~]+$/;

/**
 * `inline` or `attachment` and the file name, as the web client reads it. Its pattern
 * (`filename[^;=\n]*=((['']).*?\2|[^;\n]*)`) takes the first `filename…=` value and strips only
 * single quotes, so a quoted name is saved with its double quotes turned into `_`. The name is sent
 * bare as the original does (`attachment; filename=6.1C.pdf`, behaviour.md §9.3) when it is made of
 * token characters. Any other name goes bare with each other character as `_` (which the client
 * saves) and exactly as `filename*=UTF-8''…` (RFC 6266, which browsers and other clients prefer).
 */
export function contentDisposition(filename: string, asAttachment: boolean): string {
  const type = asAttachment ? 'attachment' : 'inline';
  if (BARE_NAME.test(filename)) return `${type}; filename=${filename}`;
  const fallback = [...filename].map((c) => (BARE_NAME.test(c) ? c : '_')).join('') || 'download';
  // A name that cannot be sent whole anywhere: control characters and path separators become `_`.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: it replaces control characters
  const exact = filename.replace(/[\u0000-\u001f\u007f\\/]/g, '_');
  const encoded = encodeURIComponent(exact).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename=${fallback}; filename*=UTF-8''${encoded}`;
}

/**
 * Only media a browser shows as media may be shown in the page: images (not SVG, which runs
 * scripts), audio, video and PDF. Anything else is saved, whatever the procedure asked, so an
 * upload that also parses as HTML is never rendered from our origin.
 */
function showsInline(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'image/svg+xml') return false;
  return /^(image|audio|video)\/[a-z0-9.+-]+$/.test(type) || type === 'application/pdf';
}

/** A file whose own policy sandboxes it (an opaque origin) may be shown whatever its type. */
function isSandboxed(file: FileResult): boolean {
  const policy = Object.entries(file.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-security-policy')?.[1] ?? '';
  return file.sandboxed === true && /^\s*sandbox\b/i.test(policy) && !/allow-same-origin/i.test(policy);
}

function unsatisfiable(reply: FastifyReply, size: number): FastifyReply {
  return reply.code(416).header('Content-Range', `bytes */${size}`).type('application/json; charset=utf-8').send({ error: 'Requested range not satisfiable' });
}

async function sendFile(reply: FastifyReply, file: FileResult, request: FastifyRequest): Promise<FastifyReply> {
  const rangeHeader = request.headers.range;
  reply.header('Content-Type', file.contentType);
  for (const [name, value] of Object.entries(file.headers ?? {})) reply.header(name, value);
  reply.header('Content-Disposition', contentDisposition(file.filename, file.asAttachment || !(showsInline(file.contentType) || isSandboxed(file))));
  // The declared type is the only one: no browser may sniff an upload into HTML (set for every answer in app.ts too).
  reply.header('X-Content-Type-Options', 'nosniff');
  if (isStoredBytes(file.data)) return sendStored(reply, file, file.data, rangeHeader, request.method === 'HEAD');
  if (Buffer.isBuffer(file.data)) {
    if (!file.ranges) return reply.send(file.data);
    reply.header('Accept-Ranges', 'bytes');
    const range = parseRange(rangeHeader, file.data.length);
    if (range === 'unsatisfiable') return unsatisfiable(reply, file.data.length);
    if (!range) return reply.send(file.data);
    const { start, end } = range;
    return reply
      .code(206)
      .header('Content-Range', `bytes ${start}-${end}/${file.data.length}`)
      .send(file.data.subarray(start, end + 1));
  }
  // A stream (a zip being written) is sent as it is read, never gathered in memory.
  if (file.size !== undefined) reply.header('Content-Length', String(file.size));
  return reply.send(file.data);
}

/**
 * A stored file, opened now: all of it, or only the range asked for, so the store reads just those
 * bytes (one ranged GET on S3). The range is read against the size the procedure saw; a file
 * replaced since (its size changed) is asked again with its new size. A HEAD opens nothing: its
 * headers come from that size (Fastify would read a stream it is given to the end, and drop it).
 */
async function sendStored(reply: FastifyReply, file: FileResult, stored: StoredBytes, rangeHeader: string | undefined, head: boolean): Promise<FastifyReply> {
  let size = stored.size;
  for (let tries = 1; ; tries++) {
    const range = file.ranges ? parseRange(rangeHeader, size) : null;
    if (file.ranges) reply.header('Accept-Ranges', 'bytes');
    if (range === 'unsatisfiable') return unsatisfiable(reply, size);
    if (head) {
      if (range) reply.code(206).header('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
      return reply.header('Content-Length', String(range ? range.end - range.start + 1 : size)).send(Readable.from([]));
    }
    const opened = await stored.open(range ?? undefined);
    if (!opened) return reply.code(404).type('application/json; charset=utf-8').send({ error: 'File missing' });
    if (range && opened.size !== size && tries < 3) {
      opened.stream.destroy();
      size = opened.size;
      continue;
    }
    if (!range) return reply.header('Content-Length', String(opened.size)).send(opened.stream);
    const { start, end } = range;
    return reply
      .code(206)
      .header('Content-Range', `bytes ${start}-${end}/${size}`)
      .header('Content-Length', String(end - start + 1))
      .send(opened.stream);
  }
}

/**
 * The REST compatibility layer: one Fastify route per procedure that names a REST path.
 * It turns the request into the procedure's input, calls it through the tRPC caller, and
 * answers in the legacy shapes and statuses.
 */
export function registerRestRoutes(app: FastifyInstance, appRouter: AnyRouter, services: Services): RestRoute[] {
  const createCaller = createCallerFactory(appRouter);
  const routes = restRoutes(appRouter);
  for (const route of routes) {
    const segments = route.procedure.split('.');
    const limits = multipartLimits(route, services.config);
    app.route({
      method: route.method,
      url: route.url,
      // Upload routes get the longer allowance for their body (src/http/limits.ts).
      config: { upload: route.upload !== undefined },
      // Before any of the body is read: credentials, then what the headers say about the body.
      // A flood of large bodies without valid credentials costs a session lookup, not memory.
      onRequest: async (request, reply) => {
        try {
          // Without a body there is nothing to protect yet; the procedure checks credentials anyway.
          if (!route.public && hasBody(request)) await resolveCaller(createContext(services, readCredentials(request.headers)));
          checkBodyHeaders(request.headers, limits);
        } catch (error) {
          return sendError(reply, request, error, route.html ? services.config.externalName : undefined);
        }
      },
      handler: async (request, reply) => {
        const multipart = new MultipartBody(limits);
        try {
          const input = await procedureInput(request, route.headerFields, multipart);
          if (route.tail) input[route.tail] = (request.params as Record<string, unknown>)['*'];
          const ctx = createContext(services, readCredentials(request.headers), request.ip);
          const caller = createCaller(ctx) as unknown as Record<string, unknown>;
          const call = segments.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (input: unknown) => Promise<unknown>;
          const result = await call(input);
          // Before the answer goes out, so that a client holding it finds nothing left behind.
          await multipart.discard();
          // A page route that may also redirect (RestMeta html + redirect) answers 302 when given `{location}`.
          if (route.html && route.redirect && typeof result === 'object' && result !== null && 'location' in result) {
            return reply
              .code(302)
              .header('Location', (result as { location: string }).location)
              .send();
          }
          reply.code(route.status);
          if (route.status === 204) return reply.send();
          if (route.file) return await sendFile(reply, result as FileResult, request);
          if (route.redirect && !route.html) return reply.header('Location', (result as { location: string }).location).send();
          if (route.html) return sendHtml(reply, String(result), route.csp);
          if (route.text) return reply.type('text/plain; charset=utf-8').send(String(result));
          return reply.type('application/json; charset=utf-8').send(JSON.stringify(result ?? null));
        } catch (error) {
          await multipart.discard();
          return sendError(reply, request, error, route.html ? services.config.externalName : undefined);
        }
      },
    });
  }
  return routes;
}

/** Errors raised before a procedure runs (unreadable JSON, unknown content type, oversized upload). */
export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) {
      const resource = translateResourceError(error);
      if (resource) return sendError(reply, request, resource);
      request.log.error({ err: error }, 'unexpected error');
      return reply.code(500).send({ error: GENERIC_FAILURE });
    }
    // Fastify closes the connection after a body it stopped reading; the client, still sending,
    // then meets a reset and may never read the 413. The rest of the body is read and thrown away
    // instead (the lingering read in compat/bodies.ts), which keeps the connection's framing intact.
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') reply.removeHeader('connection');
    // An unsupported body type is bad input like any other.
    return reply.code(status === 415 ? 400 : status).send({ error: error.message });
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ error: `No such operation: ${request.method} ${request.url.split('?')[0]}` });
  });
}
