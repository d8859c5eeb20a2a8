import { z } from 'zod';
import { allUsersOut } from '../../operations/users/read-users.ts';
import { route } from '../../trpc/route.ts';
import { systemQuery } from '../../trpc/scopes/index.ts';
import { userOut } from './schemas.ts';

export const listUsers = systemQuery(z.object({}), { action: 'list_users', refused: 'Cannot list users - not authorised' })
  .meta(route('GET', '/api/users', 'Users', 'List all users (Admin, Convenor)'))
  .output(z.array(userOut))
  .query(({ ctx }) => allUsersOut(ctx.em));
