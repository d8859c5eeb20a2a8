// GET /metrics in Prometheus' text format, on the API's port (registerMetricsRoutes) and, with
// METRICS_PORT, on a listener of its own (src/metrics/listener.ts), which is how a SERVICE_ROLE=worker
// process, which serves no HTTP otherwise, is scraped. Registered on Fastify directly, like the
// probes: it is no REST compatibility route and not in the OpenAPI document.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from './registry.ts';
import type { RouteOf } from '../http/route-pattern.ts';

export const METRICS_PATH = '/metrics';

export interface MetricsAnswer {
  status: number;
  contentType: string;
  body: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** Whether `Authorization` carries the bearer token (compared in constant time). */
function authorised(token: string | undefined, authorization: string | undefined): boolean {
  if (!token) return true;
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  return given !== undefined && timingSafeEqual(sha256(given), sha256(token));
}

const json = (status: number, error: string): MetricsAnswer => ({ status, contentType: 'application/json; charset=utf-8', body: JSON.stringify({ error }) });

/** The answer to a scrape: 401 without the token (when METRICS_TOKEN is set), else the metrics; never a 500. */
export async function metricsAnswer(metrics: Metrics, token: string | undefined, authorization: string | undefined): Promise<MetricsAnswer> {
  if (!authorised(token, authorization)) return json(401, 'The metrics need the bearer token set in METRICS_TOKEN (Authorization: Bearer <token>).');
  try {
    // Collectors that can fail catch their own failures (collectOrSkip); this is the last guard.
    return { status: 200, contentType: metrics.registry.contentType, body: await metrics.scrape() };
  } catch (error) {
    metrics.log(`[metrics] a scrape failed: ${(error as Error).message}`);
    return json(503, 'The metrics could not be collected; try again.');
  }
}

/** Times every request by its route pattern, and serves GET /metrics. */
export function registerMetricsRoutes(app: FastifyInstance, metrics: Metrics, token: () => string | undefined, routeOf: RouteOf): void {
  app.addHook('onResponse', async (request, reply) => {
    // The route's URL template (`/api/units/:id`, `/trpc/units.get`), never the raw URL: one series per route, not per id.
    const route = routeOf(request);
    if (route === METRICS_PATH) return;
    metrics.httpDuration.observe({ method: request.method, route, status_class: `${Math.floor(reply.statusCode / 100)}xx` }, reply.elapsedTime / 1000);
  });
  app.get(METRICS_PATH, async (request, reply) => {
    const answer = await metricsAnswer(metrics, token(), request.headers.authorization);
    return reply.code(answer.status).type(answer.contentType).send(answer.body);
  });
}
