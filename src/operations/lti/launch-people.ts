// Who a launch is: the user a platform's (issuer, sub) was linked to, else the account with the
// email the platform sent, else a new account. The platform's email counts as verified: the Admin
// who registered the platform vouched for it (the LTI claims carry no `email_verified`). Accounts
// that administer users are never claimed by email (claimableByEmail).
import { LtiIdentity, User, type IUser } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { claimableByEmail, systemRoleForNewUser } from '../../policy/index.ts';
import { badRequest, forbidden } from '../../lib/errors.ts';
import type { LaunchClaims } from './launch-claims.ts';
import { findOrCreateLtiUser } from './find-or-create-users.ts';

/** `%`, `_` and `\` are wildcards or escapes in ILIKE; an address must match only itself. */
const likeLiteral = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

const NO_EMAIL =
  'The LMS did not send your email address, which a new account needs. Ask the LMS administrator to share names and email addresses with this tool.';
const ADMIN_BY_EMAIL = "This email address belongs to an administrator's account, which is never signed in from an LMS.";

/** The existing user, without creating anything: for the linking page, which creates nothing. */
export async function findLaunchUser(em: Em, claims: Pick<LaunchClaims, 'issuer' | 'sub' | 'person'>): Promise<IUser | null> {
  const identity = await em.findOne(LtiIdentity, { issuer: claims.issuer, sub: claims.sub }, { populate: ['user'] });
  if (identity) return identity.user as IUser;
  if (!claims.person.email) return null;
  const byEmail = await em.findOne(User, { email: { $ilike: likeLiteral(claims.person.email) } }, { orderBy: { id: 'asc' } });
  if (byEmail && !claimableByEmail(byEmail.systemRole)) throw forbidden(ADMIN_BY_EMAIL);
  return byEmail;
}

/**
 * The launch's user, created when new (`staff`: the course's Instructor or teaching assistant, made
 * a Tutor; everyone else a Student), with the platform identity linked so later launches find them
 * by (issuer, sub) even if their email changes. Matching and creating are the roster sync's
 * (people.ts), so a person is the same account whichever arrives first.
 */
export async function launchUser(em: Em, claims: LaunchClaims, staff: boolean): Promise<IUser> {
  // The launch's own refusals first: an administrator's address (403), a new person without an email (400).
  const existing = await findLaunchUser(em, claims);
  if (!existing && !claims.person.email) throw badRequest(NO_EMAIL);
  const { userId } = await findOrCreateLtiUser(
    em,
    { issuer: claims.issuer },
    { sub: claims.sub, email: claims.person.email, given_name: claims.person.givenName, family_name: claims.person.familyName, name: claims.person.name },
    systemRoleForNewUser(staff),
  );
  return em.findOneOrFail(User, { id: userId });
}
