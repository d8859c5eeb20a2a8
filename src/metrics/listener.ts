// METRICS_PORT: GET /metrics on a port of its own. A SERVICE_ROLE=worker process serves no HTTP
// otherwise, and its job metrics (job_duration_seconds, its job pool) exist only in that process,
// so this is how they are scraped; an API process may use it too, to keep metrics off the public port.
import { createServer, type Server } from 'node:http';
import { metricsAnswer, METRICS_PATH } from './route.ts';
import type { Metrics } from './registry.ts';

export interface MetricsListener {
  /** The port it listens on (METRICS_PORT, or the one the kernel gave for 0). */
  port: number;
  close(): Promise<void>;
}

export async function startMetricsListener(metrics: Metrics, token: string | undefined, port: number, host: string): Promise<MetricsListener> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const answer =
      request.method === 'GET' && path === METRICS_PATH
        ? metricsAnswer(metrics, token, request.headers.authorization)
        : Promise.resolve({
            status: 404,
            contentType: 'application/json; charset=utf-8',
            body: JSON.stringify({ error: 'Only GET /metrics is served here.' }),
          });
    void answer.then(({ status, contentType, body }) => response.writeHead(status, { 'Content-Type': contentType }).end(body));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
