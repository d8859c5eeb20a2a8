import { z } from 'zod';
import { allUsersOut } from './rows.ts';
import { userOut } from './schemas.ts';
import { systemQuery } from '../../trpc/scopes/index.ts';

export const listUsers = systemQuery(z.object({}), { action: 'list_users', refused: 'Cannot list users - not authorised' })
  .meta({ openapi: { method: 'GET', path: '/api/users', tags: ['Users'], summary: 'List all users (Admin, Convenor)' } })
  .output(z.array(userOut))
  .query(async ({ ctx }) => {
    return allUsersOut(ctx.em);
  });
