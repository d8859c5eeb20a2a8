import { User } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { emailLocalPart, uniqueUsername } from '../../lib/usernames.ts';
import { canAssignRole } from '../../policy/index.ts';
import { forbidden } from '../../trpc/errors.ts';
import { assertUnique, resolveSystemRole } from './rules.ts';
import { createUserInput, toUser, userOut, wrapClientUser } from './schemas.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';

export const createUser = systemMutation(createUserInput, {
  action: 'create_user',
  refused: 'Not authorised to create new users',
  // Before the input is parsed: the web client's flat body becomes the spec's `user` wrapper, with
  // a username made from the email when (as always from its dialog) it names none.
  rawInput: async (em, raw) => {
    const body = wrapClientUser(raw);
    if (body !== raw) await usernameFromEmail(em, (body as { user: Record<string, unknown> }).user);
    return body;
  },
})
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/users',
      tags: ['Users'],
      summary: 'Create a user (Admin any role; Convenor Student or Tutor)',
      description:
        'Username and email are stored lower-cased and must be unique; `user[username]` is required (400 without). Without `user[password]` the user cannot sign in with a password until one is set. The web client\'s flat camelCase body (`firstName`, `systemRole`, `studentId`, …, no `user` wrapper) is accepted too; its "Add New User" dialog sends no username, so one is made from the email\'s local part, with the lowest number appended that makes it unique.',
    },
    // The web client's "new user" dialog sends PUT /api/users with no id (an upstream bug), and
    // a flat camelCase body without username or password (see createUserInput).
    rest: { aliases: [{ method: 'PUT', path: '/api/users' }] },
  })
  .output(userOut)
  .mutation(async ({ ctx, input }) => {
    const u = input.user;
    const role = resolveSystemRole(u.system_role);
    if (!canAssignRole(ctx.user.systemRole, null, role)) throw forbidden(`Not authorised to create new users with role ${role}`);
    await assertUnique(ctx.em, { username: u.username, email: u.email, studentId: u.student_id });
    const user = ctx.em.create(User, {
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
    await ctx.em.flush();
    return toUser(user);
  });

/** The web client's dialog names no username: the email's local part, made unique, as the original's client expects. */
async function usernameFromEmail(em: Em, user: Record<string, unknown>): Promise<void> {
  const { username, email } = user;
  if ((username === undefined || username === null || username === '') && typeof email === 'string' && email.includes('@')) {
    user.username = await uniqueUsername(em, emailLocalPart(email.trim()));
  }
}
