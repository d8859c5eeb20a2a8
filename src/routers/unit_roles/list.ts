import { z } from 'zod';
import { authedProcedure } from '../../trpc/core.ts';
import { route } from '../../trpc/route.ts';
import { listOwnUnitRoles } from '../../operations/unit_roles/list-own-unit-roles.ts';
import { listUnitRolesInput, unitRoleListedOut } from './schemas.ts';

export const listUnitRoles = authedProcedure
  .meta(
    route('GET', '/api/unit_roles', 'Unit roles', "The caller's own unit roles", {
      description:
        'Staff (Tutor, Convenor, Admin) get their roles in units, newest unit first; anyone else gets an empty list. `active_only=true` ' +
        'keeps only roles in active units.',
    }),
  )
  .input(listUnitRolesInput)
  .output(z.array(unitRoleListedOut))
  .query(({ ctx, input }) => listOwnUnitRoles(ctx.em, ctx.user, input.active_only === true));
