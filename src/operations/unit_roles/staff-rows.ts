import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import type { UnitStaffRole } from '../../../schema/enums.ts';

/** A staff member of a unit: the unit's `staff` list and the answer of POST/PUT /api/unit_roles. */
export interface StaffMemberOut {
  id: number;
  role: UnitStaffRole;
  user: { id: number; email: string; first_name: string; last_name: string; username: string; nickname: string | null };
}

/** Staff of several units in one query, grouped by unit (units without staff get an empty list). */
export async function staffOfUnits(em: Em, unitIds: readonly number[]): Promise<Map<number, StaffMemberOut[]>> {
  const byUnit = new Map<number, StaffMemberOut[]>(unitIds.map((id) => [id, []]));
  if (unitIds.length === 0) return byUnit;
  const rows = await db(em)
    .selectFrom('unit_roles as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.id', 'r.unit_id', 'r.role', 'u.id as user_id', 'u.email', 'u.first_name', 'u.last_name', 'u.username', 'u.nickname'])
    .where('r.unit_id', 'in', [...unitIds])
    .orderBy('r.id')
    .execute();
  for (const row of rows) {
    byUnit.get(row.unit_id)?.push(toStaffMember(row));
  }
  return byUnit;
}

/** A unit's staff (the `staff` list of GET /api/units/{id}), in one query. */
export async function staffOfUnit(em: Em, unitId: number): Promise<StaffMemberOut[]> {
  return (await staffOfUnits(em, [unitId])).get(unitId) ?? [];
}

/** One staff member by unit role id, in one query (null when there is none). */
export async function staffMember(em: Em, unitRoleId: number): Promise<StaffMemberOut | null> {
  const row = await db(em)
    .selectFrom('unit_roles as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.id', 'r.role', 'u.id as user_id', 'u.email', 'u.first_name', 'u.last_name', 'u.username', 'u.nickname'])
    .where('r.id', '=', unitRoleId)
    .executeTakeFirst();
  return row ? toStaffMember(row) : null;
}

interface StaffRow {
  id: number;
  role: StaffMemberOut['role'];
  user_id: number;
  email: string;
  first_name: string;
  last_name: string;
  username: string;
  nickname: string | null;
}

function toStaffMember(row: StaffRow): StaffMemberOut {
  return {
    id: row.id,
    role: row.role,
    user: { id: row.user_id, email: row.email, first_name: row.first_name, last_name: row.last_name, username: row.username, nickname: row.nickname ?? null },
  };
}
