import { z } from 'zod';
import { User, type IUser } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { loadIdpKeys, roleForNewUser, verifySamlResponse, type SamlIdentity, type VerifiedSaml } from '../../lib/saml.ts';
import { rememberAssertion } from '../../lib/saml-replay.ts';
import { uniqueUsername } from '../../lib/usernames.ts';
import { issueToken } from '../../lib/sessions.ts';
import { publicMutation } from '../../trpc/core.ts';
import { forbidden, unauthorized } from '../../trpc/errors.ts';
import { formString } from '../../trpc/fields.ts';

const INVALID = 'Invalid SAML response.';
const NOT_CONFIGURED = 'Single sign-on is not configured';

export const samlSignInInput = z.object({
  SAMLResponse: formString().pipe(z.string().min(1, { message: 'is missing' })),
});

export const samlSignInOut = z.object({
  token: z.string(),
  user: z.object({ email: z.string(), name: z.string() }),
});

/** `%`, `_` and `\` are wildcards or escapes in ILIKE; an address must match only itself. */
function likeLiteral(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The account this identity signs in to: the one with its email (any case), else a new one.
 * Never by username: the identity provider's uid and our usernames are different namespaces,
 * so an IdP user named `admin` must not become our Admin.
 */
async function findOrCreateUser(em: Em, identity: SamlIdentity): Promise<IUser> {
  const byEmail = await em.findOne(User, { email: { $ilike: likeLiteral(identity.email) } }, { orderBy: { id: 'asc' } });
  if (byEmail) return byEmail;
  return em.create(User, {
    username: await uniqueUsername(em, identity.preferredUsername),
    email: identity.email,
    firstName: identity.firstName,
    lastName: identity.lastName,
    systemRole: roleForNewUser(identity),
    passwordHash: null, // single sign-on only
    hasRunFirstTimeSetup: false,
  });
}

export const samlSignIn = publicMutation
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/auth/jwt',
      protect: false,
      tags: ['Authentication'],
      summary: 'Sign in with a SAML response from the identity provider',
      description:
        '`SAMLResponse` is the base64 SAML 2.0 Response the identity provider posted (JSON or form body). Its signature (RSA with SHA-256 or SHA-512) must verify with the configured identity-provider certificate, and the identity is read only from the signed part. The assertion must carry an ID, a NotOnOrAfter and an audience restriction naming this service, and each assertion is accepted once. The user is found by email only, or created with a username made from the uid (else the email) that no one holds yet (Tutor for staff or faculty affiliation, else Student). Returns a remembered token. 401 for any invalid, unsigned, expired, replayed or mis-addressed response; 403 when single sign-on is not configured. The spec also lists it as a header, so a `SAMLResponse` header is read when the body has none.',
      requestHeaders: z.object({ SAMLResponse: z.string().optional() }),
    },
  })
  .input(samlSignInInput)
  .output(samlSignInOut)
  .mutation(async ({ ctx, input }) => {
    const { idpCert, audience } = ctx.config.saml;
    if (ctx.config.authMethod !== 'saml' || !idpCert || !audience) throw forbidden(NOT_CONFIGURED);
    let keys: string[];
    try {
      keys = await loadIdpKeys(idpCert);
    } catch {
      throw forbidden(NOT_CONFIGURED);
    }
    const now = ctx.clock.now();
    let verified: VerifiedSaml;
    try {
      verified = verifySamlResponse(input.SAMLResponse, { keys, now, audience });
    } catch {
      throw unauthorized(INVALID);
    }
    if (!(await rememberAssertion(ctx.em, verified.assertionId, verified.usableUntil))) throw unauthorized(INVALID);
    const user = await findOrCreateUser(ctx.em, verified.identity);
    const token = await issueToken(ctx.em, user, now, true);
    return { token, user: { email: user.email, name: `${user.firstName} ${user.lastName}` } };
  });
