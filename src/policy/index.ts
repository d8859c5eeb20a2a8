import type { SystemRole } from '../../schema/enums.ts';
import { db } from '../db/kysely.ts';
import type { Em } from '../db/orm.ts';
import { canAssignRole, roleChangeAction, SYSTEM_PERMISSIONS, unitRoleOf, type SystemAction } from './permissions.ts';
import { ROLE, type UnitRoleName } from './roles.ts';
import { roleInGroupFor, type ProjectRole } from './scopes.ts';

export * from './roles.ts';
export * from './scopes.ts';
export * from './single-sign-on.ts';
export * from './staff.ts';
export * from './task-triggers.ts';
export * from './enforced-feedback.ts';
export * from './required-discussion.ts';
export { SCORM_TOKEN_LIFETIME_MS, SCORM_TOKENS_PER_USER, tokenLifetimeMs } from './token-lifetime.ts';
export {
  canAssignRole,
  CONVENOR_CAPABLE,
  roleChangeAction,
  TUTOR_CAPABLE,
  unitRoleOf,
  unitRolesBlocking,
  type SystemAction,
} from './permissions.ts';

/** May this user perform a system-level action? */
export function can(user: { systemRole: SystemRole }, action: SystemAction): boolean {
  return SYSTEM_PERMISSIONS[user.systemRole].has(action);
}

type Caller = { id: number; systemRole: SystemRole };

/**
 * Why the caller may not give this user that system role (null: they may). Nobody changes their
 * own; other changes follow canAssignRole (promote and demote).
 */
export function roleChangeRefusal(caller: Caller, user: { id: number; systemRole: SystemRole }, to: SystemRole): string | null {
  if (user.id === caller.id) return 'You cannot change your own system role';
  if (!canAssignRole(caller.systemRole, user.systemRole, to))
    return `Not authorised to ${roleChangeAction(user.systemRole, to)} user with id=${user.id} to ${to}`;
  return null;
}

/** A password is set by the user themself, or by whoever administers users. */
export function maySetPassword(caller: Caller, userId: number): boolean {
  return caller.id === userId || can(caller, 'admin_users');
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

/** Is this user an active member of the group through an enrolled project? */
export async function isGroupMember(em: Em, groupId: number, userId: number): Promise<boolean> {
  const row = await db(em)
    .selectFrom('group_memberships as m')
    .innerJoin('projects as p', 'p.id', 'm.project_id')
    .select('m.id')
    .where('m.group_id', '=', groupId)
    .where('m.active', '=', true)
    .where('p.enrolled', '=', true)
    .where('p.user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The caller's role inside a group: their unit role, except that a Student counts only as a member (roleInGroupFor). */
export async function roleInGroup(em: Em, user: { id: number }, unitRole: UnitRoleName | null, groupId: number): Promise<UnitRoleName | null> {
  if (unitRole !== ROLE.student) return unitRole;
  return roleInGroupFor(unitRole, await isGroupMember(em, groupId, user.id));
}
