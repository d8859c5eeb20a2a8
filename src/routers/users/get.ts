import { getUser as readUser } from '../../operations/users/read-users.ts';
import { route } from '../../trpc/route.ts';
import { userQuery } from '../../trpc/scopes/index.ts';
import { userIdInput, userOut } from './schemas.ts';

export const getUser = userQuery(userIdInput, {
  action: 'admin_users',
  refused: (id) => `Cannot find User with id ${id}`,
})
  .meta(route('GET', '/api/users/{id}', 'Users', 'Get a user (the user themself, or Admin)'))
  .output(userOut)
  .query(({ ctx, input }) => readUser(ctx.em, input.id));
