// GET/POST /invitations/{token}: the page an invited user opens from their mail to set a password.
// Plain HTML routes (no tRPC): the user has no session yet, and the page must work without the web client.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { hashPassword } from '../lib/passwords.ts';
import type { Services } from '../trpc/context.ts';
import { formPage, messagePage } from './page.ts';
import { acceptInvitation } from '../operations/invitations/accept-invitation.ts';
import { findInvitation } from '../operations/invitations/invitation-tokens.ts';

const MIN_PASSWORD = 8;
const MAX_PASSWORD = 255;

const REFUSALS = {
  unknown: { status: 404, title: 'Link not found', message: 'This link is not valid. Ask your unit convenor or administrator for a new one.' },
  used: {
    status: 400,
    title: 'Link already used',
    message: 'This link has been used already; each link works once. Sign in with the password you chose, or ask for a new link.',
  },
  expired: {
    status: 400,
    title: 'Link expired',
    message: 'This link has expired (links are valid for 7 days). Ask your unit convenor or administrator for a new one.',
  },
} as const;

function html(reply: FastifyReply, status: number, body: string) {
  return (
    reply
      .code(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      // The token is in the address: keep it out of Referer headers and frames.
      .header('referrer-policy', 'no-referrer')
      .header('x-frame-options', 'DENY')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'")
      .send(body)
  );
}

function passwordProblem(password: unknown, confirmation: unknown): string | null {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD) return `The password is too short (minimum is ${MIN_PASSWORD} characters).`;
  if (password.length > MAX_PASSWORD) return `The password is too long (maximum is ${MAX_PASSWORD} characters).`;
  if (password !== confirmation) return 'The two passwords do not match.';
  return null;
}

export function registerInvitationRoutes(app: FastifyInstance, services: Services): void {
  const product = services.config.externalName;

  app.get<{ Params: { token: string } }>('/invitations/:token', async (request, reply) => {
    const found = await findInvitation(services.orm.em.fork(), request.params.token, services.clock.now());
    if ('refused' in found) {
      const r = REFUSALS[found.refused];
      return html(reply, r.status, messagePage(product, r.title, r.message));
    }
    return html(reply, 200, formPage({ product, username: found.username, firstName: found.firstName, action: request.params.token, minLength: MIN_PASSWORD }));
  });

  app.post<{ Params: { token: string }; Body: Record<string, unknown> | undefined }>('/invitations/:token', async (request, reply) => {
    const em = services.orm.em.fork();
    const now = services.clock.now();
    const found = await findInvitation(em, request.params.token, now);
    if ('refused' in found) {
      const r = REFUSALS[found.refused];
      return html(reply, r.status, messagePage(product, r.title, r.message));
    }
    const body = request.body ?? {};
    const problem = passwordProblem(body.password, body.password_confirmation);
    if (problem) {
      return html(
        reply,
        400,
        formPage({ product, username: found.username, firstName: found.firstName, action: request.params.token, error: problem, minLength: MIN_PASSWORD }),
      );
    }
    const passwordHash = await hashPassword(body.password as string);
    const claimed = await acceptInvitation(em, found, passwordHash, now);
    if (!claimed) return html(reply, 400, messagePage(product, REFUSALS.used.title, REFUSALS.used.message));
    return html(reply, 200, messagePage(product, 'Password set', `Your password is set. You can now sign in as ${found.username}.`));
  });
}
