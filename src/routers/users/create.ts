import { User } from '../../../schema/index.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { emailLocalPart, uniqueUsername } from '../../lib/usernames.ts';
import { authorize, canAssignRole } from '../../policy/index.ts';
import { authedMutation } from '../../trpc/core.ts';
import { forbidden } from '../../trpc/errors.ts';
import { assertUnique, resolveSystemRole } from './rules.ts';
import { createUserInput, toUser, userOut, wrapClientUser } from './schemas.ts';

export const createUser = authedMutation
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/users',
      tags: ['Users'],
      summary: 'Create a user (Admin any role; Convenor Student or Tutor)',
      description:
        'Username and email are stored lower-cased and must be unique. Without `user[username]` the username is the email\'s local part, with the lowest number appended that makes it unique. Without `user[password]` the user cannot sign in with a password until one is set. The web client\'s flat camelCase body (`firstName`, `systemRole`, `studentId`, …, no `user` wrapper) is accepted too.',
    },
    // The web client's "new user" dialog sends PUT /api/users with no id (an upstream bug), and
    // a flat camelCase body without username or password (see createUserInput).
    rest: { aliases: [{ method: 'PUT', path: '/api/users' }] },
  })
  // Before the input is parsed: the web client's flat body becomes the spec's `user` wrapper.
  .use(async ({ getRawInput, next }) => next({ getRawInput: async () => wrapClientUser(await getRawInput()) }))
  .input(createUserInput)
  .output(userOut)
  .mutation(async ({ ctx, input }) => {
    authorize(ctx.user, 'create_user', 'Not authorised to create new users');
    const u = input.user;
    const role = resolveSystemRole(u.system_role);
    if (!canAssignRole(ctx.user.systemRole, null, role)) throw forbidden(`Not authorised to create new users with role ${role}`);
    await assertUnique(ctx.em, { username: u.username, email: u.email, studentId: u.student_id });
    const user = ctx.em.create(User, {
      username: u.username ?? (await uniqueUsername(ctx.em, emailLocalPart(u.email))),
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
    await ctx.em.flush();
    return toUser(user);
  });
