// Stopping the HTTP side without dropping a request (issue 14 §4). Once the stop begins, every
// answer says `Connection: close`, so no client sends another request on a connection about to
// close; requests that arrive are answered as usual (Fastify's 503 while closing is turned off in
// src/app.ts), and the server has closed as soon as the last of them is done.
//
// Connections with nothing in flight are closed once they have been quiet for QUIET_MS, not at
// the instant the stop begins (Node's server.close() would close them at once): a client about to
// send on a connection it believes open would otherwise see a reset. A client still sending gets
// its answer with `Connection: close` and goes elsewhere; one that has been quiet for a while is
// unlikely to be writing just then.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

const QUIET_MS = 500;
const SWEEP_EVERY_MS = 50;

const stopping = new WeakSet<FastifyInstance>();
/** Per server: its connections with nothing in flight, and since when. */
const idle = new WeakMap<FastifyInstance, Map<Socket, number>>();

export function registerDrain(app: FastifyInstance): void {
  const quiet = new Map<Socket, number>();
  idle.set(app, quiet);
  app.server.on('connection', (socket: Socket) => {
    quiet.set(socket, performance.now());
    socket.once('close', () => quiet.delete(socket));
  });
  app.server.on('request', (req, res) => {
    const socket = req.socket as Socket;
    quiet.delete(socket);
    res.once('finish', () => {
      if (!socket.destroyed) quiet.set(socket, performance.now());
    });
  });
  app.addHook('onSend', async (_request, reply) => {
    if (stopping.has(app)) reply.header('Connection', 'close');
  });
}

/** Whether the stop has begun (the probes answer 503 from then on). */
export const isStopping = (app: FastifyInstance): boolean => stopping.has(app);

/**
 * Closes the connections that have had nothing in flight for QUIET_MS. The sweep is a timer, and
 * timers run before the event loop polls for I/O: on a busy process a connection accepted long
 * ago may have its first request waiting unread in the kernel's buffer, which would only be read
 * (and the connection taken off the quiet list by its 'request') in the poll that follows. So the
 * connections found quiet are closed in the check phase after that poll, if still quiet.
 */
function closeQuiet(app: FastifyInstance): void {
  const quiet = idle.get(app);
  if (!quiet) return;
  const now = performance.now();
  const found = [...quiet].filter(([, since]) => now - since >= QUIET_MS);
  if (found.length === 0) return;
  setImmediate(() => {
    for (const [socket, since] of found) if (quiet.get(socket) === since) socket.destroy();
  });
}

/** Begins the stop: no new connections, quiet ones closed as they become so; resolves once the server has closed. */
export async function beginStop(app: FastifyInstance): Promise<void> {
  stopping.add(app);
  // A connection the kernel has completed but Node has not yet accepted sits in the listening
  // socket's queue, and closing the listener resets it. On a busy process the signal may be
  // handled before the poll that would accept it; so let one more poll run (the first immediate
  // fires after this iteration's poll, the second after the next one) before the listener closes.
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  // server.close() closes every idle connection at once; only the quiet ones, here.
  app.server.closeIdleConnections = () => closeQuiet(app);
  const sweep = setInterval(() => closeQuiet(app), SWEEP_EVERY_MS);
  return app.close().finally(() => clearInterval(sweep));
}
