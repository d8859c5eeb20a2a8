import type { AnyRouter } from '@trpc/server';
import type { Meta, RestMeta } from './core.ts';

export interface RestRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** Fastify pattern, e.g. /api/units/:unit_id/outcomes/:id */
  url: string;
  /** Dotted procedure path, e.g. units.outcomes.update */
  procedure: string;
  status: number;
  file: boolean;
  text: boolean;
  /** Answers a redirect to the `location` the procedure returns. */
  redirect: boolean;
  /** Answers the HTML document the procedure returns (errors as pages for browsers). */
  html: boolean;
  /** The page's own Content-Security-Policy (RestMeta `csp`), else the default of compat/html.ts. */
  csp?: string;
  /** A compatibility alias, served but not documented. */
  alias: boolean;
  /** Input fields that may also arrive as request headers (declared as OpenAPI request headers). */
  headerFields: string[];
  /** Served without credentials (`protect: false`); every other route checks them before reading a body. */
  public: boolean;
  /** Takes files, with this cap on their total size (undefined: MAX_UPLOAD_BYTES); other routes refuse file parts. */
  upload?: RestMeta['upload'];
  /** The input field the route's wildcard (`*`, the rest of the path) fills. */
  tail?: string;
}

/** Every procedure that carries a REST route in its meta; there is no second list to keep in step. */
export function restRoutes(appRouter: AnyRouter): RestRoute[] {
  const procedures = appRouter._def.procedures as Record<string, { _def: { meta?: Meta } }>;
  const routes: RestRoute[] = [];
  for (const [procedure, def] of Object.entries(procedures)) {
    const meta = def._def.meta;
    if (!meta?.openapi) continue;
    const { method, path, requestHeaders } = meta.openapi;
    const shared = {
      procedure,
      status: meta.rest?.status ?? (meta.rest?.redirect ? 302 : method === 'POST' ? 201 : 200),
      file: meta.rest?.file ?? false,
      text: meta.rest?.text ?? false,
      redirect: meta.rest?.redirect ?? false,
      html: meta.rest?.html ?? false,
      csp: meta.rest?.csp,
      headerFields: requestHeaders ? Object.keys(requestHeaders.shape) : [],
      public: meta.openapi.protect === false,
      upload: meta.rest?.upload,
      tail: meta.rest?.tail,
    };
    const tail = meta.rest?.tail;
    const url = (p: string) => (tail && p.endsWith(`/{${tail}}`) ? `${p.slice(0, -`{${tail}}`.length)}*` : p).replace(/\{([^}]+)\}/g, ':$1');
    routes.push({ ...shared, method, url: url(path), alias: false });
    for (const alias of meta.rest?.aliases ?? []) routes.push({ ...shared, method: alias.method, url: url(alias.path), alias: true });
  }
  return routes;
}
