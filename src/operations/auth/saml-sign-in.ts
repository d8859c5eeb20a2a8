// Signing in with a SAML response from the identity provider (POST /api/auth/jwt).
import { User, type IUser } from '../../../schema/index.ts';
import type { Config } from '../../config.ts';
import type { Em } from '../../db/orm.ts';
import { loadIdpKeys, roleForNewUser, verifySamlResponse, type SamlIdentity, type VerifiedSaml } from './saml-assertion.ts';
import { rememberAssertion } from './saml-replay.ts';
import { issueToken } from './session-tokens.ts';
import { uniqueUsername } from '../users/usernames.ts';
import { forbidden, unauthorized } from '../../lib/errors.ts';

const INVALID = 'Invalid SAML response.';
const NOT_CONFIGURED = 'Single sign-on is not configured';

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

/** A remembered token for the identity a signed, fresh, unreplayed response names; 401 otherwise, 403 without single sign-on. */
export async function samlSignIn(
  em: Em,
  config: Pick<Config, 'authMethod' | 'saml'>,
  now: Date,
  samlResponse: string,
): Promise<{ token: string; user: { email: string; name: string } }> {
  const { idpCert, audience } = config.saml;
  if (config.authMethod !== 'saml' || !idpCert || !audience) throw forbidden(NOT_CONFIGURED);
  let keys: string[];
  try {
    keys = await loadIdpKeys(idpCert);
  } catch {
    throw forbidden(NOT_CONFIGURED);
  }
  let verified: VerifiedSaml;
  try {
    verified = verifySamlResponse(samlResponse, { keys, now, audience });
  } catch {
    throw unauthorized(INVALID);
  }
  if (!(await rememberAssertion(em, verified.assertionId, verified.usableUntil))) throw unauthorized(INVALID);
  const user = await findOrCreateUser(em, verified.identity);
  const token = await issueToken(em, user, now, true);
  return { token, user: { email: user.email, name: `${user.firstName} ${user.lastName}` } };
}
