import { User, type IUser } from '../../../schema/index.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { endSessions } from '../../lib/sessions.ts';
import { maySetPassword, roleChangeRefusal } from '../../policy/index.ts';
import { forbidden } from '../../trpc/errors.ts';
import { findOr404 } from '../../trpc/lookup.ts';
import { assertUnique, assertUnitRolesAllow, resolveSystemRole } from './rules.ts';
import { toUser, updateUserInput, userOut, type UpdateUserInput } from './schemas.ts';
import { userMutation } from '../../trpc/scopes/index.ts';

type Changes = UpdateUserInput['user'];

/** The plain fields of the request as entity properties; absent fields stay as they are. */
function plainChanges(u: Changes): Partial<IUser> {
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

export const updateUser = userMutation(updateUserInput, {
  action: 'update_user',
  refused: (id) => `Cannot modify user with id=${id} - not authorised`,
})
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/users/{id}',
      tags: ['Users'],
      summary: 'Update a user (the user themself, or Admin/Convenor)',
      description:
        "Only the fields sent change. Nobody changes their own role; other role changes follow the promote/demote rules. Only the user themself or an Admin may set a password; a new password ends the user's other sessions (all of them when an Admin sets it).",
    },
  })
  .output(userOut)
  .mutation(async ({ ctx, input }) => {
    const { self } = ctx;
    const user = await findOr404(ctx.em, User, input.id);
    const u = input.user;

    let newRole = user.systemRole;
    if (u.system_role !== undefined) {
      const role = resolveSystemRole(u.system_role);
      if (role !== user.systemRole) {
        const refusal = roleChangeRefusal(ctx.user, user, role);
        if (refusal) throw forbidden(refusal);
        await assertUnitRolesAllow(ctx.em, user, role);
        newRole = role;
      }
    }

    if (u.password !== undefined && !maySetPassword(ctx.user, user.id)) {
      throw forbidden(`Not authorised to set the password of user with id=${input.id}`);
    }

    const changes = plainChanges(u);
    await assertUnique(
      ctx.em,
      {
        email: changes.email !== user.email ? changes.email : undefined,
        studentId: changes.studentId !== user.studentId ? changes.studentId : undefined,
      },
      user.id,
    );
    ctx.em.assign(user, { ...changes, systemRole: newRole });
    if (u.password !== undefined) user.passwordHash = await hashPassword(u.password);
    await ctx.em.flush();
    // A new password ends the user's other sessions: whoever knew the old one is signed out.
    // The caller changing their own keeps the session they are using.
    if (u.password !== undefined) await endSessions(ctx.em, user.id, self ? ctx.session : undefined);
    // The caller facts cached for this user's sessions (role, names) are now stale.
    ctx.afterCommit(() => ctx.sessions.forgetUser(user.id));
    return toUser(user);
  });
