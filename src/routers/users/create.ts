import { createUser as create, usernameFromEmail } from '../../operations/users/create-user.ts';
import { route } from '../../trpc/route.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';
import { createUserInput, userOut, wrapClientUser } from './schemas.ts';

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
  .meta(
    route('POST', '/api/users', 'Users', 'Create a user (Admin any role; Convenor Student or Tutor)', {
      description: "Username and email are stored lower-cased and must be unique; the web client's flat camelCase body is accepted too. See docs/api/users.md.",
      // The web client's "new user" dialog sends PUT /api/users with no id (an upstream bug), and
      // a flat camelCase body without username or password (see createUserInput).
      rest: { aliases: [{ method: 'PUT', path: '/api/users' }] },
    }),
  )
  .output(userOut)
  .mutation(({ ctx, input }) => create(ctx.em, ctx.user, input.user));
