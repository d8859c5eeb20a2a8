import type { SystemRole } from '../../schema/enums.ts';
import { db } from '../db/kysely.ts';
import type { Em } from '../db/orm.ts';
import { forbidden } from '../trpc/errors.ts';
import { SYSTEM_PERMISSIONS, unitRoleOf, type SystemAction, type UnitRoleName } from './permissions.ts';
import type { ProjectRole } from './scopes.ts';

export * from './scopes.ts';
export {
  canAssignRole,
  CONVENOR_CAPABLE,
  roleChangeAction,
  TUTOR_CAPABLE,
  unitRoleOf,
  unitRolesBlocking,
  type SystemAction,
  type UnitRoleName,
} from './permissions.ts';

/** May this user perform a system-level action? */
export function can(user: { systemRole: SystemRole }, action: SystemAction): boolean {
  return SYSTEM_PERMISSIONS[user.systemRole].has(action);
}

/** Refuses with 403 and the given message unless the user may perform the action. */
export function authorize(user: { systemRole: SystemRole }, action: SystemAction, message: string): void {
  if (!can(user, action)) throw forbidden(message);
}

/** The caller's role in each of these units (null: none), resolved in one query. */
export async function rolesInUnits(em: Em, user: { id: number; systemRole: SystemRole }, unitIds: number[]): Promise<Map<number, UnitRoleName | null>> {
  const roles = new Map<number, UnitRoleName | null>();
  if (unitIds.length === 0) return roles;
  const rows = await db(em)
    .selectFrom('units as u')
    .leftJoin('unit_roles as r', (j) => j.onRef('r.unit_id', '=', 'u.id').on('r.user_id', '=', user.id))
    .leftJoin('projects as p', (j) => j.onRef('p.unit_id', '=', 'u.id').on('p.user_id', '=', user.id).on('p.enrolled', '=', true))
    .select(['u.id', 'r.role', 'p.id as project_id'])
    .where('u.id', 'in', unitIds)
    .execute();
  for (const row of rows) roles.set(row.id, unitRoleOf(row.role, row.project_id !== null, user.systemRole));
  return roles;
}

/** The caller's role in one unit (null: none): the one place `my_role` comes from. */
export async function roleInUnit(em: Em, user: { id: number; systemRole: SystemRole }, unitId: number): Promise<UnitRoleName | null> {
  return (await rolesInUnits(em, user, [unitId])).get(unitId) ?? null;
}

/**
 * The caller's role on a project (§1.6): its owner is the Student; staff of its unit (a Tutor or
 * Convenor unit role) act as Tutor; anyone else, Admins included, has none.
 */
export async function roleInProject(em: Em, user: { id: number }, project: { userId: number; unitId: number }): Promise<ProjectRole | null> {
  if (project.userId === user.id) return 'Student';
  const staff = await db(em).selectFrom('unit_roles').select('id').where('unit_id', '=', project.unitId).where('user_id', '=', user.id).executeTakeFirst();
  return staff ? 'Tutor' : null;
}
