import type { FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { parseForm } from './input.ts';

/** How long the unread rest of an answered request may keep arriving (and be thrown away). */
const LINGER_MS = 5_000;

/**
 * How the app reads bodies. JSON and form bodies are parsed under the app's `bodyLimit`
 * (MAX_BODY_BYTES). Multipart bodies are only marked here and read later by the route
 * (compat/multipart.ts), under that route's limits and after its credentials were checked.
 */
export async function registerBodyParsers(app: FastifyInstance, options: { jsonOnlyPrefix?: string } = {}): Promise<void> {
  await app.register(formbody, { parser: parseForm });
  await app.register(multipart);
  // tRPC's Fastify adapter cannot read a multipart body (it answers 500), and no procedure takes
  // one over /trpc: refuse it as any other body of a type the route does not read.
  const prefix = options.jsonOnlyPrefix;
  if (prefix) {
    app.addHook('onRequest', async (request) => {
      if (request.url.startsWith(prefix) && /^\s*multipart\//i.test(String(request.headers['content-type'] ?? ''))) {
        throw Object.assign(new Error(`Multipart bodies are not accepted under ${prefix}: send JSON.`), { statusCode: 415 });
      }
    });
  }
  // An answer given before the body was read (419, 413, a refused file) leaves the rest of it on
  // the wire. It is read and thrown away, as nginx's lingering close does: closing at once would
  // reset the connection, and the client could lose the answer it has not read yet. A client
  // still sending after LINGER_MS is cut off.
  app.addHook('onResponse', async (request) => {
    const req = request.raw;
    if (req.complete !== false || req.destroyed) return;
    req.unpipe();
    req.resume();
    const cut = setTimeout(() => req.socket?.destroy(), LINGER_MS);
    cut.unref();
    const done = () => clearTimeout(cut);
    req.once('end', done);
    req.once('close', done);
  });
}
