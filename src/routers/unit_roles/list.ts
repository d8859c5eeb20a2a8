import { z } from 'zod';
import { db } from '../../db/kysely.ts';
import { can, unitRoleOf } from '../../policy/index.ts';
import { authedProcedure } from '../../trpc/core.ts';
import { listUnitRolesInput, toUnitBrief, toUnitRoleUser, unitRoleListedOut } from './schemas.ts';

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
    const rows = await db(ctx.em)
      .selectFrom('unit_roles as r')
      .innerJoin('units as u', 'u.id', 'r.unit_id')
      .select(['r.id as role_id', 'r.role', 'u.id', 'u.code', 'u.name', 'u.start_date', 'u.end_date', 'u.active', 'u.teaching_period_id'])
      .where('r.user_id', '=', ctx.user.id)
      .$if(input.active_only === true, (q) => q.where('u.active', '=', true))
      .orderBy('u.start_date', 'desc')
      .orderBy('r.id')
      .execute();
    // Every role is the caller's own, so the user part is the caller.
    const user = toUnitRoleUser(ctx.user);
    // my_role through the one resolution of src/policy: the staff role each row holds comes first.
    return rows.map((row) => ({ id: row.role_id, role: row.role, user, unit: toUnitBrief(row, unitRoleOf(row.role, false, ctx.user.systemRole)!) }));
  });
