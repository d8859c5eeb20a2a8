import type { FastifyRequest } from 'fastify';
import qs from 'qs';
import type { UploadedFile } from '../src/trpc/files.ts';

export const MAX_UPLOAD_BYTES = 30_000_000;

/** Bracketed form keys (`teaching_period[period]`) become nested objects, as JSON clients send them. */
export function parseForm(body: string): Record<string, unknown> {
  return qs.parse(body, { depth: 5, arrayLimit: 200, parameterLimit: 2000 }) as Record<string, unknown>;
}

async function readMultipart(request: FastifyRequest): Promise<Record<string, unknown>> {
  const fields: Record<string, string> = {};
  const files: Record<string, UploadedFile> = {};
  for await (const part of request.parts({ limits: { fileSize: MAX_UPLOAD_BYTES } })) {
    if (part.type === 'file') {
      const data = await part.toBuffer();
      files[part.fieldname] = { filename: part.filename, contentType: part.mimetype, data };
    } else {
      fields[part.fieldname] = String(part.value);
    }
  }
  return { ...(qs.parse(fields, { depth: 5 }) as Record<string, unknown>), ...files };
}

/**
 * One input object for the procedure: query, then body, then path parameters (which win,
 * so a body cannot redirect an operation to another record).
 */
export async function procedureInput(request: FastifyRequest, headerFields: string[] = []): Promise<Record<string, unknown>> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  let body: unknown = request.body;
  if (request.isMultipart()) body = await readMultipart(request);
  const bodyObject = body && typeof body === 'object' && !Array.isArray(body) && !Buffer.isBuffer(body) ? body : {};
  const params = (request.params ?? {}) as Record<string, unknown>;
  const input: Record<string, unknown> = { ...query, ...(bodyObject as Record<string, unknown>), ...params };
  for (const field of headerFields) {
    const header = request.headers[field.toLowerCase()];
    if (input[field] === undefined && typeof header === 'string') input[field] = header;
  }
  return input;
}
