import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A loopback TCP relay in front of a server whose link the test can cut and restore, the way an
 * operator meets a database that goes away: open connections drop and new ones are refused.
 */
export interface TcpCut {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The relay's side towards the server for a client that just connected: both sockets are tracked
 * in `sockets` until they close, and an error on either ends both (as a cut link would).
 */
export function upstreamFor(client: Socket, targetPort: number, sockets: Set<Socket>): Socket {
  const upstream = connect(targetPort, '127.0.0.1');
  for (const s of [client, upstream]) {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {
      client.destroy();
      upstream.destroy();
    });
  }
  return upstream;
}

export async function tcpCut(targetPort: number): Promise<TcpCut> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        client.pipe(upstreamFor(client, targetPort, sockets)).pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server ? server.close(() => resolve()) : resolve();
      server = undefined;
    });

  await listen();
  return { port, cut: stop, restore: listen, close: stop };
}
