import { z } from 'zod';
import { usersWithRoles } from '../../operations/users/read-users.ts';
import { TUTOR_CAPABLE } from '../../policy/index.ts';
import { route } from '../../trpc/route.ts';
import { systemQuery } from '../../trpc/scopes/index.ts';
import { userOut } from './schemas.ts';

export const listTutors = systemQuery(z.object({}), { action: 'convene_units', refused: 'Cannot list tutors - not authorised' })
  .meta(route('GET', '/api/users/tutors', 'Users', 'Users who can tutor: system role Tutor, Convenor or Admin (Admin, Convenor)'))
  .output(z.array(userOut))
  .query(({ ctx }) => usersWithRoles(ctx.em, TUTOR_CAPABLE));
