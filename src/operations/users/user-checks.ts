import { SYSTEM_ROLES, type SystemRole } from '../../../schema/enums.ts';
import { unitRolesBlocking } from '../../policy/index.ts';
import { UnitRole, User, type IUser } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { badRequest, forbidden } from '../../lib/errors.ts';

// Checks the users operations share; which role may do what is the policy module's.

/** The role named, case-insensitively; anything else is refused with 403 as in the original. */
export function resolveSystemRole(name: string): SystemRole {
  const wanted = name.trim().toLowerCase();
  const role = SYSTEM_ROLES.find((r) => r.toLowerCase() === wanted);
  if (!role) throw forbidden(`No such role name ${name}`);
  return role;
}

/** 400 when the user holds a unit role that the new system role could not perform. */
export async function assertUnitRolesAllow(em: Em, user: IUser, to: SystemRole): Promise<void> {
  const blocking = unitRolesBlocking(to);
  if (blocking.length === 0) return;
  const held = await em.find(UnitRole, { user: user.id, role: { $in: blocking } }, { fields: ['role'] });
  const roles = blocking.filter((r) => held.some((h) => h.role === r));
  if (roles.length === 0) return;
  const reasons = roles.map((r) => `Role cannot be changed to ${to} because the user has a ${r} role in a unit`);
  throw badRequest(`Validation failed: ${reasons.join(', ')}`);
}

/**
 * 400 naming every field whose value another user already holds (usernames and emails are
 * stored lower-cased). The unique indexes stay as the backstop for concurrent writes.
 */
export async function assertUnique(em: Em, values: { username?: string; email?: string; studentId?: string | null }, exceptId?: number): Promise<void> {
  const checks: [label: string, where: Record<string, string>][] = [];
  if (values.username !== undefined) checks.push(['Username', { username: values.username }]);
  if (values.email !== undefined) checks.push(['Email', { email: values.email }]);
  if (values.studentId != null) checks.push(['Student ID', { studentId: values.studentId }]);
  if (checks.length === 0) return;
  const where = { $or: checks.map(([, w]) => w), ...(exceptId !== undefined ? { id: { $ne: exceptId } } : {}) };
  const clashes = await em.find(User, where as never, { fields: ['username', 'email', 'studentId'] });
  const taken = checks
    .filter(([, w]) => clashes.some((u) => Object.entries(w).every(([k, v]) => (u as unknown as Record<string, unknown>)[k] === v)))
    .map(([label]) => `${label} has already been taken`);
  if (taken.length > 0) throw badRequest(`Validation failed: ${taken.join(', ')}`);
}
