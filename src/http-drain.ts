// Stopping the HTTP side without dropping a request (issue 14 §4). Once the stop begins, every
// answer says `Connection: close`, so no client sends another request on a connection about to
// close; connections with nothing in flight are closed at once, and so is each one as its last
// answer goes out; requests that have arrived are answered as usual (Fastify's 503 while closing
// is turned off in src/app.ts), and the server has closed as soon as the last of them is done.
import type { FastifyInstance } from 'fastify';

const stopping = new WeakSet<FastifyInstance>();

export function registerDrain(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply) => {
    if (stopping.has(app)) reply.header('Connection', 'close');
  });
  // An answer that began before the stop leaves a keep-alive connection idle when it ends.
  app.addHook('onResponse', async () => {
    if (stopping.has(app)) setImmediate(() => app.server.closeIdleConnections());
  });
}

/** Whether the stop has begun (the probes answer 503 from then on). */
export const isStopping = (app: FastifyInstance): boolean => stopping.has(app);

/** Begins the stop: no new connections, idle ones closed now; resolves once the server has closed. */
export function beginStop(app: FastifyInstance): Promise<void> {
  stopping.add(app);
  const closing = app.close();
  app.server.closeIdleConnections();
  return closing;
}
