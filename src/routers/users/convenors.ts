import { z } from 'zod';
import { usersWithRoles } from '../../operations/users/read-users.ts';
import { CONVENOR_CAPABLE } from '../../policy/index.ts';
import { route } from '../../trpc/route.ts';
import { systemQuery } from '../../trpc/scopes/index.ts';
import { userOut } from './schemas.ts';

export const listConvenors = systemQuery(z.object({}), { action: 'convene_units', refused: 'Cannot list convenors - not authorised' })
  .meta(route('GET', '/api/users/convenors', 'Users', 'Users who can convene: system role Convenor or Admin (Admin, Convenor)'))
  .output(z.array(userOut))
  .query(({ ctx }) => usersWithRoles(ctx.em, CONVENOR_CAPABLE));
