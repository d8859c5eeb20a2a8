import type { FastifyRequest } from 'fastify';
import qs from 'qs';
import { badRequest } from '../src/lib/errors.ts';
import type { MultipartBody } from './multipart.ts';

/** Bracketed form keys (`teaching_period[period]`) become nested objects, as JSON clients send them. */
export function parseForm(body: string): Record<string, unknown> {
  return qs.parse(body, { depth: 5, arrayLimit: 200, parameterLimit: 2000 }) as Record<string, unknown>;
}

/**
 * One input object for the procedure: query, then body, then path parameters (which win,
 * so a body cannot redirect an operation to another record). A multipart body is read only
 * through `multipart`, which holds the route's limits and the request's temporary files.
 */
export async function procedureInput(request: FastifyRequest, headerFields: string[] = [], multipart?: MultipartBody): Promise<Record<string, unknown>> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  let body: unknown = request.body;
  if (request.isMultipart()) {
    if (!multipart) throw badRequest('This operation does not take a multipart body.');
    body = await multipart.read(request);
  }
  const bodyObject = body && typeof body === 'object' && !Array.isArray(body) && !Buffer.isBuffer(body) ? body : {};
  const params = (request.params ?? {}) as Record<string, unknown>;
  const input: Record<string, unknown> = { ...query, ...(bodyObject as Record<string, unknown>), ...params };
  for (const field of headerFields) {
    const header = request.headers[field.toLowerCase()];
    if (input[field] === undefined && typeof header === 'string') input[field] = header;
  }
  return input;
}
