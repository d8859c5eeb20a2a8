import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import type { SystemRole } from '../../../schema/enums.ts';
import { can, ROLE, rolesInUnits } from '../../policy/index.ts';

/** The units a convenor convenes (every unit for whoever administers units), with the caller's role in each. */
export async function listUnits(em: Em, user: { id: number; systemRole: SystemRole }, includeInactive: boolean | undefined) {
  const seesAll = can(user, 'admin_units');
  const rows = await db(em)
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
            .where('r.user_id', '=', user.id)
            .where('r.role', '=', ROLE.convenor),
        ),
      ),
    )
    .$if(includeInactive !== true, (q) => q.where('u.active', '=', true))
    .orderBy('u.start_date', 'desc')
    .orderBy('u.code')
    .orderBy('u.id')
    .execute();
  const roles = await rolesInUnits(
    em,
    user,
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
}
