// What a request is counted (src/metrics/route.ts) and logged (src/http/request-log.ts) under: the
// route's URL template, never the raw URL, so that the set of values is fixed by the code and not
// by what clients send (one Prometheus series per value; a raw URL would make one per id).
import type { FastifyRequest } from 'fastify';

export type RouteOf = (request: FastifyRequest) => string;

/** A URL no route matches (the 404 handler's). */
export const UNMATCHED = 'unmatched';

/**
 * The route pattern of a request. tRPC's adapter serves every procedure from one route
 * (`/trpc/:path`); a call of one known procedure is named by it (`/trpc/units.get`), anything else
 * there (a batch `a,b`, or a name no procedure has) stays `/trpc/:path`: procedure names are a
 * fixed set, batches and unknown names are whatever a client makes up.
 */
export function routePatterns(procedures: Iterable<string>, trpcPrefix = '/trpc'): RouteOf {
  const known = new Set(procedures);
  const trpcRoute = `${trpcPrefix}/:path`;
  return (request) => {
    const route = request.routeOptions.url;
    if (route === undefined) return UNMATCHED;
    if (route !== trpcRoute) return route;
    const path = (request.params as { path?: unknown } | undefined)?.path;
    return typeof path === 'string' && known.has(path) ? `${trpcPrefix}/${path}` : route;
  };
}
