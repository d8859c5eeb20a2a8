import { z } from 'zod';
import { db } from '../../db/kysely.ts';
import { can, ROLE, rolesInUnits } from '../../policy/index.ts';
import { listUnitsInput, unitSummaryOut } from './schemas.ts';
import { systemQuery } from '../../trpc/scopes/index.ts';

// A unit in no teaching period has no teaching_period_id (the spec's summary form).
const listedUnitOut = unitSummaryOut.extend({ teaching_period_id: z.number().int().optional() });

export const listUnits = systemQuery(listUnitsInput, { action: 'convene_units', refused: 'Unable to list units' })
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/units',
      tags: ['Units'],
      summary: 'Units the caller convenes (Admin: every unit)',
      description:
        "Convenors see the units where they hold a Convenor unit role, admins every unit; tutors and students are refused. Inactive units are left out unless `include_in_active=true`. Each carries the caller's `my_role`.",
    },
  })
  .output(z.array(listedUnitOut))
  .query(async ({ ctx, input }) => {
    const seesAll = can(ctx.user, 'admin_units');
    const rows = await db(ctx.em)
      .selectFrom('units as u')
      .leftJoin('unit_roles as mc', 'mc.id', 'u.main_convenor_id')
      .select([
        'u.id',
        'u.code',
        'u.name',
        'u.description',
        'u.start_date',
        'u.end_date',
        'u.active',
        'u.teaching_period_id',
        'mc.user_id as main_convenor_user_id',
      ])
      .$if(!seesAll, (q) =>
        q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('unit_roles as r')
              .select('r.id')
              .whereRef('r.unit_id', '=', 'u.id')
              .where('r.user_id', '=', ctx.user.id)
              .where('r.role', '=', ROLE.convenor),
          ),
        ),
      )
      .$if(input.include_in_active !== true, (q) => q.where('u.active', '=', true))
      .orderBy('u.start_date', 'desc')
      .orderBy('u.code')
      .orderBy('u.id')
      .execute();
    const roles = await rolesInUnits(
      ctx.em,
      ctx.user,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({
      code: r.code,
      id: r.id,
      name: r.name,
      my_role: roles.get(r.id) ?? null,
      main_convenor_user_id: r.main_convenor_user_id,
      description: r.description,
      start_date: r.start_date,
      end_date: r.end_date,
      active: r.active,
      ...(r.teaching_period_id !== null && { teaching_period_id: r.teaching_period_id }),
    }));
  });
