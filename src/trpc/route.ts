// A procedure's REST route and documentation in one line: `route('PUT', '/api/units/{id}', 'Units',
// 'Update a unit')`, plus what is rare (a longer description, a success status, aliases, files).
// Long behaviour descriptions belong in docs/, not in the procedure.
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Meta, RestMeta } from './core.ts';

type OpenApi = NonNullable<OpenApiMeta['openapi']>;

export interface RouteOptions {
  /** One or two sentences shown in the OpenAPI document under the summary. */
  description?: string;
  /** `false` for an operation served without credentials. */
  protect?: boolean;
  /** How the REST layer answers beyond the default (status, file, text, aliases, upload). */
  rest?: RestMeta;
  /** Anything else of trpc-to-openapi's meta (e.g. `requestHeaders`). */
  openapi?: Partial<OpenApi>;
}

export function route(method: OpenApi['method'], path: `/api/${string}`, tag: string, summary: string, options: RouteOptions = {}): Meta {
  const { description, protect, rest, openapi } = options;
  return {
    openapi: { method, path, tags: [tag], summary, ...(description && { description }), ...(protect !== undefined && { protect }), ...openapi },
    ...(rest && { rest }),
  };
}
