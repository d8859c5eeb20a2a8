import { User } from '../../../schema/index.ts';
import { findOr404 } from '../../trpc/lookup.ts';
import { toUser, userIdInput, userOut } from './schemas.ts';
import { userQuery } from '../../trpc/scopes/index.ts';

export const getUser = userQuery(userIdInput, {
  action: 'admin_users',
  refused: (id) => `Cannot find User with id ${id}`,
})
  .meta({ openapi: { method: 'GET', path: '/api/users/{id}', tags: ['Users'], summary: 'Get a user (the user themself, or Admin)' } })
  .output(userOut)
  .query(async ({ ctx, input }) => {
    return toUser(await findOr404(ctx.em, User, input.id));
  });
