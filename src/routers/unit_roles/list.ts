import { z } from 'zod';
import { UnitRole } from '../../../schema/index.ts';
import { can } from '../../policy/index.ts';
import { authedProcedure } from '../../trpc/core.ts';
import { listUnitRolesInput, toUnitRoleListed, unitRoleListedOut } from './schemas.ts';

export const listUnitRoles = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/unit_roles',
      tags: ['Unit roles'],
      summary: "The caller's own unit roles",
      description:
        'Staff (Tutor, Convenor, Admin) get their roles in units, newest unit first; anyone else gets an empty list. `active_only=true` keeps only roles in active units.',
    },
  })
  .input(listUnitRolesInput)
  .output(z.array(unitRoleListedOut))
  .query(async ({ ctx, input }) => {
    // Not a refusal: the web client asks every user at start-up and expects a list.
    if (!can(ctx.user, 'act_tutor')) return [];
    const roles = await ctx.em.find(
      UnitRole,
      { user: ctx.user.id, ...(input.active_only ? { unit: { active: true } } : {}) },
      { populate: ['unit', 'user'], orderBy: [{ unit: { startDate: 'desc' } }, { id: 'asc' }] },
    );
    return roles.map(toUnitRoleListed);
  });
