import { join } from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import type { Config } from '../src/config.ts';
import { badRequest, tooLarge } from '../src/lib/errors.ts';
import type { MultipartLimits } from './multipart.ts';
import type { RestRoute } from '../src/trpc/rest-routes.ts';

/** A route's multipart limits: fields as any body, files only on upload routes, under their cap. */
export function multipartLimits(route: Pick<RestRoute, 'upload'>, config: Config): MultipartLimits {
  return {
    fieldBytes: config.maxBodyBytes,
    fileBytes: route.upload ? uploadCap(route.upload.maxBytes, config) : undefined,
    tmpDir: join(config.dataDir, 'incoming'),
  };
}

/** A route's cap on its files: its own (a number, or read from a setting), else MAX_UPLOAD_BYTES. */
function uploadCap(maxBytes: number | ((config: Config) => number) | undefined, config: Config): number {
  if (typeof maxBytes === 'function') return maxBytes(config);
  return maxBytes ?? config.maxUploadBytes;
}

/** Whether a body follows the headers (a declared length above 0, or chunks). */
export function hasBody(request: { headers: IncomingHttpHeaders }): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

const isMultipart = (type: string) => /^\s*multipart\/form-data\b/i.test(type);

/**
 * What can be refused from the headers alone, before a byte of the body is read: a declared
 * length above what the route could ever accept (413), and a multipart body without the
 * boundary that separates its parts (400). Bodies sent without a length are counted as they
 * are read instead (by Fastify's body limit, or the multipart reader).
 */
export function checkBodyHeaders(headers: IncomingHttpHeaders, limits: MultipartLimits): void {
  const type = String(headers['content-type'] ?? '');
  const multipart = isMultipart(type);
  const max = limits.fieldBytes + (multipart ? (limits.fileBytes ?? 0) : 0);
  const declared = Number(headers['content-length'] ?? 0);
  if (declared > max) throw tooLarge(`The request body is larger than ${max} bytes.`);
  if (multipart && !/;\s*boundary=("[^"]+"|[^;\s]+)/i.test(type)) throw badRequest('The multipart body has no boundary.');
}
