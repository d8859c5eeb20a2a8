// A bounded JSON exchange with another system named by a URL someone gave us (an LMS during LTI
// Dynamic Registration): a deadline for the whole exchange, a cap on the answer's size, and JSON
// only, so a slow, huge or wrong answer costs little and ends in one clear error.

/** Why the exchange failed, in words an operator can act on. */
export class JsonHttpError extends Error {}

export interface JsonHttpLimits {
  timeoutMs: number;
  maxBytes: number;
}

export const DEFAULT_JSON_LIMITS: JsonHttpLimits = { timeoutMs: 10_000, maxBytes: 256 * 1024 };

async function readCapped(res: Response, maxBytes: number, what: string): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw new JsonHttpError(`${what}: the answer is larger than ${maxBytes} bytes`);
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      await res.body.cancel().catch(() => undefined);
      throw new JsonHttpError(`${what}: the answer is larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Sends the request and answers the JSON of a 2xx answer; JsonHttpError when the system cannot be
 * reached in time, answers another status, or answers something that is not JSON.
 */
export async function exchangeJson(url: string, init: RequestInit, what: string, limits: JsonHttpLimits = DEFAULT_JSON_LIMITS): Promise<unknown> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'error', signal, headers: { accept: 'application/json', ...init.headers } });
  } catch (error) {
    const reason = signal.aborted ? `no answer within ${limits.timeoutMs / 1000} s` : ((error as Error).cause as Error | undefined)?.message;
    throw new JsonHttpError(`${what}: ${url} could not be reached${reason ? ` (${reason})` : ''}`);
  }
  let text: string;
  try {
    text = await readCapped(res, limits.maxBytes, what);
  } catch (error) {
    if (error instanceof JsonHttpError) throw error;
    throw new JsonHttpError(`${what}: the answer was cut off${signal.aborted ? ` after ${limits.timeoutMs / 1000} s` : ''}`);
  }
  if (!res.ok) throw new JsonHttpError(`${what}: ${url} answered ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`);
  if (!/[/+]json\b/i.test(res.headers.get('content-type') ?? '')) throw new JsonHttpError(`${what}: the answer is not JSON`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new JsonHttpError(`${what}: the answer is not valid JSON`);
  }
}
