import { z } from 'zod';
import type { SystemRole } from '../../../schema/enums.ts';
import { User } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { authorize, CONVENOR_CAPABLE, TUTOR_CAPABLE } from '../../policy/index.ts';
import { authedProcedure } from '../../trpc/core.ts';
import { toUser, userOut } from './schemas.ts';

async function usersWithRoles(em: Em, roles: readonly SystemRole[]) {
  return (await em.find(User, { systemRole: { $in: [...roles] } }, { orderBy: { id: 'asc' } })).map(toUser);
}

export const listTutors = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/users/tutors',
      tags: ['Users'],
      summary: 'Users who can tutor: system role Tutor, Convenor or Admin (Admin, Convenor)',
    },
  })
  .input(z.object({}))
  .output(z.array(userOut))
  .query(async ({ ctx }) => {
    authorize(ctx.user, 'convene_units', 'Cannot list tutors - not authorised');
    return usersWithRoles(ctx.em, TUTOR_CAPABLE);
  });

export const listConvenors = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/users/convenors',
      tags: ['Users'],
      summary: 'Users who can convene: system role Convenor or Admin (Admin, Convenor)',
    },
  })
  .input(z.object({}))
  .output(z.array(userOut))
  .query(async ({ ctx }) => {
    authorize(ctx.user, 'convene_units', 'Cannot list convenors - not authorised');
    return usersWithRoles(ctx.em, CONVENOR_CAPABLE);
  });
