import { z } from 'zod';
import type { SystemRole } from '../../../schema/enums.ts';
import { User } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { CONVENOR_CAPABLE, TUTOR_CAPABLE } from '../../policy/index.ts';
import { toUser, userOut } from './schemas.ts';
import { systemQuery } from '../../trpc/scopes/index.ts';

async function usersWithRoles(em: Em, roles: readonly SystemRole[]) {
  return (await em.find(User, { systemRole: { $in: [...roles] } }, { orderBy: { id: 'asc' } })).map(toUser);
}

export const listTutors = systemQuery(z.object({}), { action: 'convene_units', refused: 'Cannot list tutors - not authorised' })
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/users/tutors',
      tags: ['Users'],
      summary: 'Users who can tutor: system role Tutor, Convenor or Admin (Admin, Convenor)',
    },
  })
  .output(z.array(userOut))
  .query(async ({ ctx }) => {
    return usersWithRoles(ctx.em, TUTOR_CAPABLE);
  });

export const listConvenors = systemQuery(z.object({}), { action: 'convene_units', refused: 'Cannot list convenors - not authorised' })
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/users/convenors',
      tags: ['Users'],
      summary: 'Users who can convene: system role Convenor or Admin (Admin, Convenor)',
    },
  })
  .output(z.array(userOut))
  .query(async ({ ctx }) => {
    return usersWithRoles(ctx.em, CONVENOR_CAPABLE);
  });
