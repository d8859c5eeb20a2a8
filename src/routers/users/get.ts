import { User } from '../../../schema/index.ts';
import { authorize } from '../../policy/index.ts';
import { authedProcedure } from '../../trpc/core.ts';
import { findOr404 } from '../lookup.ts';
import { toUser, userIdInput, userOut } from './schemas.ts';

export const getUser = authedProcedure
  .meta({ openapi: { method: 'GET', path: '/api/users/{id}', tags: ['Users'], summary: 'Get a user (the user themself, or Admin)' } })
  .input(userIdInput)
  .output(userOut)
  .query(async ({ ctx, input }) => {
    // Checked before the lookup, so callers who may not read users learn nothing about which ids exist.
    if (input.id !== ctx.user.id) authorize(ctx.user, 'admin_users', `Cannot find User with id ${input.id}`);
    return toUser(await findOr404(ctx.em, User, input.id));
  });
