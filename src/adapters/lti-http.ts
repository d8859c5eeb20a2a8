// The tool's calls to an LMS (an LTI platform): the OAuth2 token endpoint, NRPS memberships, AGS line
// items and scores, Dynamic Registration. Every call is bounded: a timeout, and a cap on the answer's
// size read into memory, so a slow, huge or hostile answer costs one clear error (a job's retry, a
// 502), never the process. Redirects are not followed: every URL here came from a registration.
export const LTI_HTTP_TIMEOUT_MS = 15_000;
/** A roster page of a few thousand members is well under this. */
export const LTI_HTTP_MAX_BYTES = 5 * 1024 * 1024;

/** A platform answered badly or not at all; `status` 0 when it was unreachable or timed out. */
export class LtiPlatformError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'LtiPlatformError';
  }
}

export interface LtiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** `Authorization: Bearer …` */
  bearer?: string;
  accept?: string;
  body?: { form: Record<string, string> } | { json: unknown; contentType?: string };
  timeoutMs?: number;
  /** Bytes of the answer read at most (LTI_HTTP_MAX_BYTES unless smaller). */
  maxBytes?: number;
  /** Refuse a 2xx answer whose Content-Type is not JSON (`…/json`, `…+json`). */
  requireJson?: boolean;
}

export interface LtiResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON body (undefined when empty). */
  json: unknown;
}

async function readCapped(res: Response, maxBytes: number, what: string): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? 'NaN');
  if (declared > maxBytes) throw new LtiPlatformError(res.status, `${what}: the answer is larger than ${maxBytes} bytes`);
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      await res.body.cancel().catch(() => undefined);
      throw new LtiPlatformError(res.status, `${what}: the answer is larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Sends one request and parses its JSON answer; throws LtiPlatformError for anything but a 2xx with JSON (or empty). */
export async function ltiFetch(url: string, request: LtiRequest = {}): Promise<LtiResponse> {
  const method = request.method ?? 'GET';
  const what = `${method} ${url}`;
  const headers: Record<string, string> = { Accept: request.accept ?? 'application/json' };
  if (request.bearer) headers.Authorization = `Bearer ${request.bearer}`;
  let body: string | undefined;
  if (request.body && 'form' in request.body) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(request.body.form).toString();
  } else if (request.body) {
    headers['Content-Type'] = request.body.contentType ?? 'application/json';
    body = JSON.stringify(request.body.json);
  }
  const timeoutMs = request.timeoutMs ?? LTI_HTTP_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body, redirect: 'error', signal });
  } catch (error) {
    const reason = signal.aborted
      ? `no answer within ${timeoutMs / 1000} s`
      : (((error as Error).cause as Error | undefined)?.message ?? (error as Error).message);
    throw new LtiPlatformError(0, `${what}: could not be reached (${reason})`);
  }
  let text: string;
  try {
    text = await readCapped(res, Math.min(request.maxBytes ?? LTI_HTTP_MAX_BYTES, LTI_HTTP_MAX_BYTES), what);
  } catch (error) {
    if (error instanceof LtiPlatformError) throw error;
    throw new LtiPlatformError(0, `${what}: the answer was cut off${signal.aborted ? ` after ${timeoutMs / 1000} s` : ''}`);
  }
  if (!res.ok) throw new LtiPlatformError(res.status, `${what}: answered ${res.status}${text ? `: ${text.slice(0, 300)}` : ''}`);
  if (request.requireJson && !/[/+]json\b/i.test(res.headers.get('content-type') ?? '')) {
    throw new LtiPlatformError(res.status, `${what}: the answer is not JSON`);
  }
  if (text.trim() === '') return { status: res.status, headers: res.headers, json: undefined };
  try {
    return { status: res.status, headers: res.headers, json: JSON.parse(text) };
  } catch {
    throw new LtiPlatformError(res.status, `${what}: the answer is not JSON`);
  }
}
