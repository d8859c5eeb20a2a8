// The similarity service (TurnItIn Core API v1) as msw handlers: the adapter's real fetch calls
// are answered here, recorded, and shaped by `state` so a test can walk a document through.
import { createHmac } from 'node:crypto';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { Config } from '../../src/config.ts';

export const SIMCHECK_URL = 'https://simcheck.test';
export const SIMCHECK_KEY = 'test-api-key';
export const SIMCHECK_SECRET = 'test-webhook-secret';
export const EULA_HTML = '<h1>End-user licence agreement</h1><p>Be nice.</p>';
export const REPORT_PDF = Buffer.from('%PDF-1.4\n% similarity report\n%%EOF\n');

export interface SeenRequest {
  method: string;
  path: string;
  body: unknown;
  bytes: number;
  authorization: string | null;
  contentDisposition: string | null;
}

export interface FakeState {
  /** Every call answers this status instead (e.g. 503 while the service is down). */
  down: number | null;
  submissionStatus: string;
  similarity: { status: string; overall_match_percentage?: number };
  pdfStatus: string;
  attachmentStatus: string;
}

const fresh = (): FakeState => ({
  down: null,
  submissionStatus: 'PROCESSING',
  similarity: { status: 'PROCESSING' },
  pdfStatus: 'PENDING',
  attachmentStatus: 'PROCESSING',
});

export interface FakeSimcheck {
  requests: SeenRequest[];
  state: FakeState;
  /** `METHOD /path` of each request so far, in order. */
  calls(): string[];
  reset(): void;
  close(): void;
}

export function startFakeSimcheck(): FakeSimcheck {
  const requests: SeenRequest[] = [];
  const fake = { requests, state: fresh() } as FakeSimcheck;
  let next = 1;
  const v1 = (path: string) => `${SIMCHECK_URL}/api/v1${path}`;

  const server = setupServer(
    // Every call is recorded first; a refusal for a wrong key or an outage comes from here too.
    http.all(`${SIMCHECK_URL}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const raw = Buffer.from(await request.clone().arrayBuffer());
      let body: unknown;
      if ((request.headers.get('content-type') ?? '').includes('json') && raw.length) body = JSON.parse(raw.toString('utf8'));
      requests.push({
        method: request.method,
        path: url.pathname.replace('/api/v1', '') + url.search,
        body,
        bytes: raw.length,
        authorization: request.headers.get('authorization'),
        contentDisposition: request.headers.get('content-disposition'),
      });
      if (request.headers.get('authorization') !== `Bearer ${SIMCHECK_KEY}`) return HttpResponse.json({ message: 'bad key' }, { status: 403 });
      if (fake.state.down) return HttpResponse.json({ message: 'unavailable' }, { status: fake.state.down });
      return undefined;
    }),
    http.get(v1('/eula/latest'), () => HttpResponse.json({ version: 'v1beta', valid_from: '2018-04-30T17:00:00Z', url: 'https://simcheck.test/eula/v1beta' })),
    http.get(v1('/eula/:version/view'), () => HttpResponse.text(EULA_HTML, { headers: { 'content-type': 'text/html' } })),
    http.post(v1('/eula/:version/accept'), () => HttpResponse.json({ accepted: true })),
    http.post(v1('/submissions'), () => HttpResponse.json({ id: `sub-${next++}`, status: 'CREATED' }, { status: 201 })),
    http.put(v1('/submissions/:id/original'), () => HttpResponse.json({ message: 'Successfully uploaded file' }, { status: 202 })),
    http.get(v1('/submissions/:id'), ({ params }) => HttpResponse.json({ id: params.id, status: fake.state.submissionStatus })),
    http.put(v1('/submissions/:id/similarity'), () => HttpResponse.json({ message: 'Request accepted' }, { status: 202 })),
    http.get(v1('/submissions/:id/similarity'), () => HttpResponse.json(fake.state.similarity)),
    http.post(v1('/submissions/:id/viewer-url'), ({ params }) => HttpResponse.json({ viewer_url: `https://viewer.simcheck.test/${params.id}` })),
    http.post(v1('/submissions/:id/similarity/pdf'), () => HttpResponse.json({ id: 'pdf-1' })),
    http.get(v1('/submissions/:id/similarity/pdf/:pdf/status'), () => HttpResponse.json({ status: fake.state.pdfStatus })),
    http.get(
      v1('/submissions/:id/similarity/pdf/:pdf'),
      () => new HttpResponse(new Uint8Array(REPORT_PDF), { headers: { 'content-type': 'application/pdf' } }),
    ),
    http.delete(v1('/submissions/:id'), () => new HttpResponse(null, { status: 204 })),
    http.put(v1('/groups/:id'), ({ params }) => HttpResponse.json({ id: params.id })),
    http.post(v1('/groups/:id/attachments'), () => HttpResponse.json({ id: `att-${next++}` }, { status: 201 })),
    http.put(v1('/groups/:id/attachments/:att/original'), () => HttpResponse.json({ message: 'uploaded' }, { status: 202 })),
    http.get(v1('/groups/:id/attachments/:att'), ({ params }) => HttpResponse.json({ id: params.att, status: fake.state.attachmentStatus })),
    http.delete(v1('/groups/:id/attachments/:att'), () => new HttpResponse(null, { status: 204 })),
    http.all(`${SIMCHECK_URL}/*`, () => HttpResponse.json({ message: 'no such call' }, { status: 404 })),
  );
  // Only the service's address is ours; the database and everything else go through untouched.
  server.listen({ onUnhandledFrame: 'bypass' });

  fake.calls = () => requests.map((r) => `${r.method} ${r.path}`);
  fake.reset = () => {
    requests.length = 0;
    fake.state = fresh();
    next = 1;
  };
  fake.close = () => server.close();
  return fake;
}

/** Points the test service's configuration at the fake (or turns checks off with `null`). */
export function configureSimcheck(config: Config, on: boolean): void {
  config.simcheckEnabled = on;
  config.simcheck = on
    ? { url: SIMCHECK_URL, apiKey: SIMCHECK_KEY, webhookSecret: SIMCHECK_SECRET, indexSubmissions: false, timeoutMs: 5_000 }
    : { url: undefined, apiKey: '', webhookSecret: '', indexSubmissions: false, timeoutMs: 5_000 };
}

/** The signature the service would put on `body`. */
export function sign(body: string, secret = SIMCHECK_SECRET): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}
