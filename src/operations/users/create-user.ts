// Creating a user (POST /api/users): the role the caller may grant, unique names, an optional password.
import type { SystemRole } from '../../../schema/enums.ts';
import { User } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { emailLocalPart, uniqueUsername } from './usernames.ts';
import { canAssignRole } from '../../policy/index.ts';
import { forbidden } from '../../lib/errors.ts';
import { toUser, type UserOut } from './to-user.ts';
import { assertUnique, resolveSystemRole } from './user-checks.ts';

export interface NewUser {
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  nickname: string;
  system_role: string;
  password?: string;
  student_id?: string | null;
  pronouns?: string | null;
  opt_in_to_research?: boolean | null;
  has_run_first_time_setup?: boolean;
}

/** A new user with the named role, which the caller must be allowed to grant (403). */
export async function createUser(em: Em, caller: { systemRole: SystemRole }, u: NewUser): Promise<UserOut> {
  const role = resolveSystemRole(u.system_role);
  if (!canAssignRole(caller.systemRole, null, role)) throw forbidden(`Not authorised to create new users with role ${role}`);
  await assertUnique(em, { username: u.username, email: u.email, studentId: u.student_id });
  const user = em.create(User, {
    username: u.username,
    email: u.email,
    firstName: u.first_name,
    lastName: u.last_name,
    nickname: u.nickname,
    studentId: u.student_id ?? null,
    pronouns: u.pronouns ?? null,
    optInToResearch: u.opt_in_to_research ?? null,
    hasRunFirstTimeSetup: u.has_run_first_time_setup ?? false,
    systemRole: role,
    passwordHash: u.password === undefined ? null : await hashPassword(u.password),
  });
  await em.flush();
  return toUser(user);
}

/** The web client's dialog names no username: the email's local part, made unique, as the original's client expects. */
export async function usernameFromEmail(em: Em, user: Record<string, unknown>): Promise<void> {
  const { username, email } = user;
  if ((username === undefined || username === null || username === '') && typeof email === 'string' && email.includes('@')) {
    user.username = await uniqueUsername(em, emailLocalPart(email.trim()));
  }
}
