// Accounts that single sign-on makes or claims (SAML, LTI launches): the one place that says which
// system role a new account gets and which existing accounts an outside system may claim by email.
import type { SystemRole, UnitStaffRole } from '../../schema/enums.ts';
import { capabilityProblem } from './staff.ts';
import { SYSTEM_PERMISSIONS } from './permissions.ts';
import { ROLE } from './roles.ts';

/**
 * A new account's system role: staff of the identity provider or LMS teach (Tutor), everyone else
 * studies (Student). Never more: making a Convenor or an Admin stays an Admin's decision.
 */
export function systemRoleForNewUser(staff: boolean): SystemRole {
  return staff ? ROLE.tutor : ROLE.student;
}

/**
 * May an LMS claim this existing account by the email it sends? Not an account that administers
 * users: where users may edit their own email in the LMS, anyone could otherwise take it.
 */
export function claimableByEmail(systemRole: SystemRole): boolean {
  return !SYSTEM_PERMISSIONS[systemRole].has('admin_users');
}

/**
 * The unit role an LMS's teaching staff get (launch and roster sync alike): an Instructor whose
 * account may convene becomes the Convenor of a unit that has no main convenor yet, and tutors
 * otherwise, as a teaching assistant does. An account that cannot teach gets null: the service never
 * raises a system role on an LMS's word.
 */
export function staffRoleFromLms(instructor: boolean, systemRole: SystemRole, unitHasMainConvenor: boolean): UnitStaffRole | null {
  if (instructor && !unitHasMainConvenor && capabilityProblem(systemRole, ROLE.convenor) === null) return ROLE.convenor;
  return capabilityProblem(systemRole, ROLE.tutor) === null ? ROLE.tutor : null;
}
