// Changing a user (PUT /api/users/{id}): plain fields, the system role under the promote/demote
// rules, and the password, which ends the user's other sessions.
import type { SystemRole } from '../../../schema/enums.ts';
import { User, type IUser } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { endSessions, type Caller, type Session } from '../auth/session-tokens.ts';
import { maySetPassword, roleChangeRefusal } from '../../policy/index.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { toUser, type UserOut } from './to-user.ts';
import { assertUnique, assertUnitRolesAllow, resolveSystemRole } from './user-checks.ts';

/** The fields a request may change; absent fields stay as they are. */
export interface UserChanges {
  first_name?: string;
  last_name?: string;
  email?: string;
  student_id?: string | null;
  nickname?: string | null;
  pronouns?: string | null;
  system_role?: string;
  receive_task_notifications?: boolean | null;
  receive_portfolio_notifications?: boolean | null;
  receive_feedback_notifications?: boolean | null;
  opt_in_to_research?: boolean | null;
  has_run_first_time_setup?: boolean;
  password?: string;
}

/** The plain fields of the request as entity properties; absent fields stay as they are. */
function plainChanges(u: UserChanges): Partial<IUser> {
  const changes: Partial<IUser> = {
    firstName: u.first_name,
    lastName: u.last_name,
    email: u.email,
    studentId: u.student_id,
    nickname: u.nickname,
    pronouns: u.pronouns,
    receiveTaskNotifications: u.receive_task_notifications === null ? true : u.receive_task_notifications,
    receivePortfolioNotifications: u.receive_portfolio_notifications === null ? true : u.receive_portfolio_notifications,
    receiveFeedbackNotifications: u.receive_feedback_notifications === null ? true : u.receive_feedback_notifications,
    optInToResearch: u.opt_in_to_research,
    hasRunFirstTimeSetup: u.has_run_first_time_setup,
  };
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Partial<IUser>;
}

/** The role the user ends up with: unchanged, or a change the caller may make (403) and the user's unit roles allow (400). */
async function newSystemRole(em: Em, caller: Caller, user: IUser, name: string | undefined): Promise<SystemRole> {
  if (name === undefined) return user.systemRole;
  const role = resolveSystemRole(name);
  if (role === user.systemRole) return role;
  const refusal = roleChangeRefusal(caller, user, role);
  if (refusal) throw forbidden(refusal);
  await assertUnitRolesAllow(em, user, role);
  return role;
}

/**
 * Changes the user. A new password ends the user's other sessions: whoever knew the old one is
 * signed out; `keep` is the session of a caller changing their own, which stays.
 */
export async function updateUser(em: Em, caller: Caller, id: number, u: UserChanges, keep?: Session): Promise<UserOut> {
  const user = await em.findOne(User, { id });
  if (!user) throw notFound('Unable to find requested User');
  const systemRole = await newSystemRole(em, caller, user, u.system_role);
  if (u.password !== undefined && !maySetPassword(caller, user.id)) {
    throw forbidden(`Not authorised to set the password of user with id=${id}`);
  }
  const changes = plainChanges(u);
  await assertUnique(
    em,
    {
      email: changes.email !== user.email ? changes.email : undefined,
      studentId: changes.studentId !== user.studentId ? changes.studentId : undefined,
    },
    user.id,
  );
  em.assign(user, { ...changes, systemRole });
  if (u.password !== undefined) user.passwordHash = await hashPassword(u.password);
  await em.flush();
  if (u.password !== undefined) await endSessions(em, user.id, keep);
  return toUser(user);
}
