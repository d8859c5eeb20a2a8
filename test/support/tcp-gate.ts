import { createServer, type Socket } from 'node:net';
import { upstreamFor } from './tcp-cut.ts';
import type { AddressInfo } from 'node:net';

/**
 * A loopback TCP relay in front of a server that the test can hold and release: while held, bytes
 * in both directions wait in the relay (connections stay open, nothing fails), so whatever a process
 * was doing through it stops where it is until the test says so. It makes "in the middle of a job"
 * a state the test chooses, not a moment it hopes to catch.
 */
export interface TcpGate {
  port: number;
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

export async function tcpGate(targetPort: number): Promise<TcpGate> {
  const sockets = new Set<Socket>();
  /** What arrived while held, in order: the socket it goes to and the bytes (null: the end). */
  let waiting: [Socket, Buffer | null][] = [];
  let held = false;

  const pass = (to: Socket, chunk: Buffer | null) => {
    if (to.destroyed) return;
    if (chunk === null) to.end();
    else to.write(chunk);
  };
  const relay = (from: Socket, to: Socket) => {
    from.on('data', (chunk: Buffer) => (held ? waiting.push([to, chunk]) : pass(to, chunk)));
    from.on('end', () => (held ? waiting.push([to, null]) : pass(to, null)));
  };

  const server = createServer((client) => {
    const upstream = upstreamFor(client, targetPort, sockets);
    relay(client, upstream);
    relay(upstream, client);
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });

  return {
    port,
    hold: () => {
      held = true;
    },
    release: () => {
      held = false;
      const queued = waiting;
      waiting = [];
      for (const [to, chunk] of queued) pass(to, chunk);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
