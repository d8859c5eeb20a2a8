import createFetchClient, { type Client } from 'openapi-fetch';
import type { paths } from './rest-types.ts';
import { type ClientOptions, Session } from './session.ts';

/** The REST API (`/api/...`) through openapi-fetch, typed from the service's OpenAPI document. */
export type RestClient = Client<paths>;

/**
 * A typed fetch for the REST API: `rest.GET('/api/units/{id}', { params: { path: { id } } })`
 * answers `{ data, error, response }`, `error` being the `{"error"}` body. The `Username` and
 * `Auth-Token` headers go on every request; a 419 is retried once after signing in again, when
 * the client has the password (`signIn`, or `password` in the options).
 */
export function createRestClient(options: ClientOptions | Session): RestClient {
  const session = options instanceof Session ? options : new Session(options);
  return createFetchClient<paths>({
    baseUrl: session.baseUrl,
    fetch: async (request: Request) => {
      const retry = session.canRenew ? request.clone() : undefined;
      const token = session.authToken;
      const response = await session.fetch(withHeaders(request, session));
      if (response.status !== 419 || !retry) return response;
      await session.renew(token);
      return session.fetch(withHeaders(retry, session));
    },
  });
}

function withHeaders(request: Request, session: Session): Request {
  const headers = new Headers(request.headers);
  for (const [name, value] of Object.entries(session.headers())) headers.set(name, value);
  return new Request(request, { headers });
}

/** A file part of a multipart form: its bytes and name (a File or Blob will do too). */
export interface FilePart {
  data: Blob | Uint8Array | string;
  filename: string;
  type?: string;
}

const isFilePart = (value: object): value is FilePart => 'data' in value && 'filename' in value;

/**
 * `bodySerializer` for uploads: `rest.POST(path, { params, body: { file0: { data, filename } }, bodySerializer: multipart })`
 * sends the body as `multipart/form-data`: files (a Blob, or `{data, filename}`) as file parts under
 * their keys, arrays and objects as JSON text (as the web client sends them), the rest as text.
 */
export function multipart(body: object): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    if (value instanceof Blob) form.append(key, value);
    else if (typeof value === 'object' && isFilePart(value)) {
      const blob = value.data instanceof Blob ? value.data : new Blob([value.data as BlobPart], value.type ? { type: value.type } : {});
      form.append(key, blob, value.filename);
    } else if (typeof value === 'object') form.append(key, JSON.stringify(value));
    else form.append(key, String(value));
  }
  return form;
}
