import type { AnyRouter } from '@trpc/server';
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { restRoutes, type RestRoute } from './trpc/rest-routes.ts';
import { appRouter } from './routers/index.ts';
import type { Meta } from './trpc/core.ts';

const SECURITY_SCHEMES = {
  Username: { type: 'apiKey', in: 'header', name: 'Username' },
  AuthToken: { type: 'apiKey', in: 'header', name: 'Auth-Token' },
} as const;

/** The one error body every failure has: `{"error": "..."}`. */
const ERROR_SCHEMA = {
  type: 'object' as const,
  properties: { error: { type: 'string' as const, description: 'What went wrong, for a person to read' } },
  required: ['error'],
};

const ERROR_DESCRIPTIONS: Record<string, string> = {
  '400': 'Missing or invalid input, or a change that would break data integrity',
  '401': 'Wrong credentials (sign-in), or an invalid assertion',
  '403': 'Not permitted to the caller',
  '404': 'No such record',
  '413': 'Body larger than the limit (for uploads, files larger than the operation allows)',
  '419': 'Credentials missing, wrong or expired: sign in again',
  '429': 'Too many attempts: wait the `Retry-After` seconds',
  '500': 'Unexpected failure',
  '503': 'The database is unavailable for the moment: try again shortly',
};

interface MediaType {
  schema?: Record<string, unknown>;
  encoding?: Record<string, { style: string; explode: boolean }>;
}
interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  description?: string;
}
interface Operation {
  parameters?: Parameter[];
  security?: Record<string, string[]>[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, { description: string; content?: Record<string, MediaType> }>;
}

/** `/api/units/:unit_id` as OpenAPI writes it: `/api/units/{unit_id}`. */
/** A Fastify pattern as the document spells its path; a route's wildcard is its `tail` parameter. */
const openApiPath = (url: string, tail?: string) => (tail && url.endsWith('/*') ? `${url.slice(0, -1)}{${tail}}` : url).replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * trpc-to-openapi describes a tRPC-over-HTTP API: every answer 200 and JSON, JSON bodies only,
 * tRPC's error shape, and one security requirement per scheme (meaning "either header will
 * do"). Our REST layer answers differently, and its rules live in each procedure's `rest`
 * meta, which the generator cannot read. So one pass over the generated operations states
 * what the REST layer really does: the success status (201 for POST unless the meta says
 * otherwise, 204 without a body), file and text answers, form bodies beside JSON (multipart
 * for uploads instead), both credential headers together, and `{"error"}` bodies with 419
 * for missing credentials, 413 for oversized bodies and 503 while the database is away.
 */
function describeRestLayer(doc: OpenAPIObject, router: AnyRouter): void {
  const procedures = router._def.procedures as Record<string, { _def: { meta?: Meta } }>;
  const bothHeaders = Object.fromEntries(Object.keys(SECURITY_SCHEMES).map((name) => [name, [] as string[]]));
  for (const route of restRoutes(router).filter((r) => !r.alias)) {
    const operation = doc.paths?.[openApiPath(route.url, route.tail)]?.[route.method.toLowerCase() as 'get'] as Operation | undefined;
    if (!operation) continue;
    const rest = procedures[route.procedure]?._def.meta?.rest;
    const protectedRoute = !!operation.security?.length;
    if (protectedRoute) operation.security = [bothHeaders];
    if (operation.requestBody) {
      operation.requestBody.content = bodyContent(operation.requestBody.content, !!rest?.upload);
      headerAlternatives(operation, route.headerFields);
    }
    operation.responses = responses(operation.responses, route, protectedRoute, !!operation.requestBody, rest?.errors ?? []);
  }
  doc.components ??= {};
  doc.components.schemas = Object.fromEntries(Object.entries(doc.components.schemas ?? {}).filter(([name]) => !name.startsWith('error.')));
  doc.components.schemas.Error = ERROR_SCHEMA;
}

/**
 * JSON and form bodies carry the same fields; a form nests them in brackets (`campus[name]=`),
 * which OpenAPI calls deepObject style. An upload's files can only come as multipart parts.
 */
function bodyContent(content: Record<string, MediaType>, upload: boolean): Record<string, MediaType> {
  const schema = content['application/json']?.schema ?? Object.values(content)[0]?.schema ?? {};
  if (upload) return { 'multipart/form-data': { schema } };
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const nested = Object.keys(properties).filter((key) => properties[key]!.type === 'object');
  const form: MediaType = { schema };
  if (nested.length) form.encoding = Object.fromEntries(nested.map((key) => [key, { style: 'deepObject', explode: true }]));
  return { 'application/json': { schema }, 'application/x-www-form-urlencoded': form };
}

/**
 * A field that may come as a request header instead (`SAMLResponse`) is required in neither
 * place alone: one of the two must carry it.
 */
function headerAlternatives(operation: Operation, headerFields: string[]): void {
  if (!headerFields.length) return;
  let bodyRequired = false;
  for (const { schema } of Object.values(operation.requestBody!.content)) {
    if (!schema || !Array.isArray(schema.required)) continue;
    const kept = (schema.required as string[]).filter((key) => !headerFields.includes(key));
    if (kept.length) schema.required = kept;
    else delete schema.required;
    bodyRequired ||= kept.length > 0;
  }
  if (!bodyRequired) operation.requestBody!.required = false;
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === 'header' && headerFields.includes(parameter.name)) {
      parameter.description = `Required here or as the body field \`${parameter.name}\`.`;
    }
  }
}

function responses(generated: Operation['responses'], route: RestRoute, protectedRoute: boolean, hasBody: boolean, extra: number[]): Operation['responses'] {
  const success = generated['200']!;
  const outputSchema = success.content?.['application/json']?.schema ?? {};
  const answer: Operation['responses'] = {};
  if (route.status === 204) {
    answer['204'] = { description: 'Done; no body' };
  } else if (route.file) {
    // A file procedure's output schema may name its type: `fileResult().meta({ contentMediaType: 'application/pdf' })`.
    const type = typeof outputSchema.contentMediaType === 'string' ? outputSchema.contentMediaType : 'application/octet-stream';
    answer[String(route.status)] = { description: 'The file', content: { [type]: { schema: { type: 'string', format: 'binary' } } } };
  } else if (route.redirect && !route.html) {
    answer[String(route.status)] = { description: 'A redirect to the `Location` header; no body' };
  } else if (route.html) {
    answer[String(route.status)] = { description: success.description, content: { 'text/html': { schema: { type: 'string' } } } };
    if (route.redirect) answer['302'] = { description: 'A redirect to the `Location` header; no body' };
  } else if (route.text) {
    answer[String(route.status)] = { description: success.description, content: { 'text/plain': { schema: { type: 'string' } } } };
  } else {
    answer[String(route.status)] = success;
  }
  // What the route implies: the generator's input 400 and 401 (our 419) and 403 for protected
  // routes; 404 for a record its path names (the scope builders load it); 413 for a body; 503
  // while the database is away; and what the meta adds (`rest.errors`, e.g. sign-in's 401, 429).
  const errorStatuses = Object.keys(generated)
    .filter((status) => Number(status) >= 400)
    .map((status) => (status === '401' && protectedRoute ? '419' : status))
    .concat(protectedRoute ? ['403', '419'] : [], route.url.includes(':') ? ['404'] : [], hasBody ? ['413'] : [], ['503'], extra.map(String))
    .filter((status) => ERROR_DESCRIPTIONS[status]);
  for (const status of [...new Set(errorStatuses)].sort()) {
    answer[status] = {
      description: ERROR_DESCRIPTIONS[status]!,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return answer;
}

/** The OpenAPI description of `router`'s REST routes, generated from the procedures' meta and zod schemas. */
export function buildOpenApiDocument(router: AnyRouter): OpenAPIObject {
  const doc = generateOpenApiDocument(router, {
    title: 'Course administration and submission service',
    description:
      'REST API of the course service. Authenticated operations need both headers `Username` and `Auth-Token` (or `Auth_Token`), ' +
      'obtained from `POST /api/auth`. Request bodies may be JSON or form-encoded with bracketed keys (`campus[name]=...`); ' +
      'operations that take files take `multipart/form-data`. Errors are `{"error": "..."}`; 419 means sign in again.',
    version: '1.0.0',
    baseUrl: '/',
    securitySchemes: SECURITY_SCHEMES,
  });
  describeRestLayer(doc, router);
  return doc;
}

let cached: OpenAPIObject | undefined;

/** The service's document, built once. */
export function openApiDocument(): OpenAPIObject {
  cached ??= buildOpenApiDocument(appRouter);
  return cached;
}
