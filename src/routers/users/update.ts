import { updateUser as update } from '../../operations/users/update-user.ts';
import { route } from '../../trpc/route.ts';
import { userMutation } from '../../trpc/scopes/index.ts';
import { updateUserInput, userOut } from './schemas.ts';

export const updateUser = userMutation(updateUserInput, {
  action: 'update_user',
  refused: (id) => `Cannot modify user with id=${id} - not authorised`,
})
  .meta(
    route('PUT', '/api/users/{id}', 'Users', 'Update a user (the user themself, or Admin/Convenor)', {
      description:
        'Only the fields sent change. Nobody changes their own role; other role changes follow the promote/demote rules. Only the user ' +
        "themself or an Admin may set a password; a new password ends the user's other sessions (all of them when an Admin sets it).",
    }),
  )
  .output(userOut)
  .mutation(async ({ ctx, input }) => {
    // The caller changing their own password keeps the session they are using.
    const user = await update(ctx.em, ctx.user, input.id, input.user, ctx.self ? ctx.session : undefined);
    // The caller facts cached for this user's sessions (role, names) are now stale.
    ctx.afterCommit(() => ctx.sessions.forgetUser(user.id));
    return user;
  });
