import { z } from 'zod';
import { authorize } from '../../policy/index.ts';
import { authedProcedure } from '../../trpc/core.ts';
import { allUsersOut } from './rows.ts';
import { userOut } from './schemas.ts';

export const listUsers = authedProcedure
  .meta({ openapi: { method: 'GET', path: '/api/users', tags: ['Users'], summary: 'List all users (Admin, Convenor)' } })
  .input(z.object({}))
  .output(z.array(userOut))
  .query(async ({ ctx }) => {
    authorize(ctx.user, 'list_users', 'Cannot list users - not authorised');
    return allUsersOut(ctx.em);
  });
