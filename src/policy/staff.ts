// Pure rules for employing staff in a unit: which roles a request names, and which may be staff (behaviour.md §1.1, §1.8, §7.3).
import type { SystemRole, UnitStaffRole } from '../../schema/enums.ts';
import { CONVENOR_CAPABLE, TUTOR_CAPABLE } from './permissions.ts';

/** A role named in a request: the system's four, matched as the original does (case-insensitive, by stem). */
export function roleFromName(name: string): SystemRole | null {
  if (/admin/i.test(name)) return 'Admin';
  if (/convenor/i.test(name)) return 'Convenor';
  if (/tutor/i.test(name)) return 'Tutor';
  if (/student/i.test(name)) return 'Student';
  return null;
}

/** The original's role ids, which the web client sends when changing a staff member's role (2 Tutor, 3 Convenor). */
const ROLE_IDS: Record<number, SystemRole> = { 1: 'Student', 2: 'Tutor', 3: 'Convenor', 4: 'Admin' };

export function roleFromId(id: number): SystemRole | null {
  return ROLE_IDS[id] ?? null;
}

export function roleIdOf(role: SystemRole): number {
  return Number(Object.keys(ROLE_IDS).find((id) => ROLE_IDS[Number(id)] === role));
}

export const ENROL_STUDENTS_INSTEAD = 'Enrol students as projects not unit roles';
export const STAFF_ROLES_ONLY = 'Staff are employed as Tutor or Convenor';

/** Why this role cannot be a staff role (a 403 for Student, as the original, a 400 otherwise), or the staff role. */
export function staffRoleOf(role: SystemRole): { role: UnitStaffRole } | { status: 400 | 403; message: string } {
  if (role === 'Student') return { status: 403, message: ENROL_STUDENTS_INSTEAD };
  if (role === 'Admin') return { status: 400, message: STAFF_ROLES_ONLY };
  return { role };
}

/** A convenor must be able to administer units, a tutor to teach; null when the user's system role allows it. */
export function capabilityProblem(systemRole: SystemRole, role: UnitStaffRole): string | null {
  if (role === 'Convenor') {
    return CONVENOR_CAPABLE.includes(systemRole)
      ? null
      : 'Validation failed: User must have a role that is able to administer units (request admin to adjust user role)';
  }
  return TUTOR_CAPABLE.includes(systemRole) ? null : 'Validation failed: User must have a role that is able to teach units (request admin to adjust user role)';
}
