import type { UnitStaffRole } from '../../../schema/enums.ts';
import type { IUser } from '../../../schema/index.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { can, unitRoleOf } from '../../policy/index.ts';
import { toUnitBrief, toUnitRoleUser, type UnitBriefOut, type UnitRoleUserOut } from './unit-brief.ts';

export interface OwnUnitRole {
  id: number;
  role: UnitStaffRole;
  user: UnitRoleUserOut;
  unit: UnitBriefOut;
}

/**
 * The user's own roles in units, newest unit first (only active units with `activeOnly`); an empty
 * list for anyone who is not staff. Not a refusal: the web client asks every user at start-up.
 */
export async function listOwnUnitRoles(
  em: Em,
  user: Pick<IUser, 'id' | 'systemRole' | 'email' | 'firstName' | 'lastName' | 'username' | 'nickname'>,
  activeOnly: boolean,
): Promise<OwnUnitRole[]> {
  if (!can(user, 'act_tutor')) return [];
  const rows = await db(em)
    .selectFrom('unit_roles as r')
    .innerJoin('units as u', 'u.id', 'r.unit_id')
    .select(['r.id as role_id', 'r.role', 'u.id', 'u.code', 'u.name', 'u.start_date', 'u.end_date', 'u.active', 'u.teaching_period_id'])
    .where('r.user_id', '=', user.id)
    .$if(activeOnly, (q) => q.where('u.active', '=', true))
    .orderBy('u.start_date', 'desc')
    .orderBy('r.id')
    .execute();
  // Every role is the user's own, so the user part is the user.
  const userOut = toUnitRoleUser(user);
  // my_role through the one resolution of src/policy: the staff role each row holds comes first.
  return rows.map((row) => ({ id: row.role_id, role: row.role, user: userOut, unit: toUnitBrief(row, unitRoleOf(row.role, false, user.systemRole)!) }));
}
