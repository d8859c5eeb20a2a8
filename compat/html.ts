// How the REST layer answers with a page (RestMeta `html`): the browser-facing LTI steps. A platform
// shows these inside its own page (an iframe) or a new window, so framing is allowed; scripts are
// inline only (the auto-submitting forms that carry a signed message back to the platform).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { messagePage } from '../src/lib/html.ts';

const TITLES: Record<number, string> = {
  400: 'This request cannot be completed',
  401: 'Not signed in',
  403: 'Not allowed',
  404: 'Not found',
  419: 'Signed out',
  429: 'Too many requests',
  502: 'The other system did not answer as expected',
  503: 'Not available',
};

/** True when the client asked for HTML (a browser), false for API clients (JSON errors as everywhere). */
export function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

export function errorPage(product: string, status: number, message: string): string {
  return messagePage(product, TITLES[status] ?? 'Something went wrong', message);
}

const DEFAULT_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; form-action https: http:";

/** `csp`: the page's own policy (RestMeta `csp`), else the LTI pages' default. */
export function sendHtml(reply: FastifyReply, body: string, csp = DEFAULT_CSP): FastifyReply {
  return (
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      // Pages carry single-use tickets in their forms: keep them out of Referer headers.
      .header('referrer-policy', 'no-referrer')
      .header('content-security-policy', csp)
      .send(body)
  );
}
