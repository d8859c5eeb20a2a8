import qs from 'qs';
import type { TestEnv } from './env.ts';

export interface Credentials {
  username: string;
  token: string;
}

export interface RequestOptions {
  /** Signs the request with these credentials (headers Username and Auth_Token). */
  as?: Credentials;
  /** Sends the token in the Angular client's `Auth-Token` header instead. */
  hyphenHeader?: boolean;
  form?: Record<string, unknown>;
  json?: unknown;
  multipart?: Record<string, string | { filename: string; contentType: string; data: Buffer }>;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * A response's parsed JSON, left untyped: each test reads the fields it asserts (assert.equal
 * checks whole shapes), and typing every endpoint's answer at ~1,700 reads would only repeat it.
 */
// biome-ignore lint/suspicious/noExplicitAny: a response body of any endpoint, read by the fields each test asserts
export type JsonBody = any;

export interface TestResponse {
  status: number;
  body: JsonBody;
  text: string;
  headers: Record<string, string | string[] | number | undefined>;
}

function multipartBody(parts: NonNullable<RequestOptions['multipart']>): { payload: Buffer; contentType: string } {
  const boundary = `----test${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(parts)) {
    if (typeof value === 'string') {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\nContent-Type: ${value.contentType}\r\n\r\n`,
        ),
        value.data,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Calls the REST surface in-process, the way a legacy client would. */
export async function api(env: TestEnv, method: string, url: string, options: RequestOptions = {}): Promise<TestResponse> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.as) {
    headers.Username = options.as.username;
    headers[options.hyphenHeader ? 'Auth-Token' : 'Auth_Token'] = options.as.token;
  }
  let payload: string | Buffer | undefined;
  if (options.form) {
    payload = qs.stringify(options.form);
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (options.json !== undefined) {
    payload = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  } else if (options.multipart) {
    const body = multipartBody(options.multipart);
    payload = body.payload;
    headers['content-type'] = body.contentType;
  }
  const query = options.query ? `${url.includes('?') ? '&' : '?'}${qs.stringify(options.query)}` : '';
  const res = await env.app.inject({ method: method as never, url: url + query, headers, payload });
  let body: unknown;
  const type = String(res.headers['content-type'] ?? '');
  if (type.includes('json') && res.body !== '') body = JSON.parse(res.body);
  return { status: res.statusCode, body, text: res.body, headers: res.headers };
}

/** Sends a body exactly as given (malformed, cut off, any content type): for tests of bad input. */
export async function rawRequest(
  env: TestEnv,
  method: string,
  url: string,
  contentType: string | undefined,
  payload: string | Buffer,
  as?: Credentials,
): Promise<{ status: number; body: JsonBody; type: string }> {
  const headers: Record<string, string> = {};
  if (contentType) headers['content-type'] = contentType;
  if (as) Object.assign(headers, { Username: as.username, 'Auth-Token': as.token });
  const res = await env.app.inject({ method: method as never, url, headers, payload });
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, body, type: String(res.headers['content-type'] ?? '') };
}
