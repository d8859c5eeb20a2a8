import type { SystemRole, UnitStaffRole } from '../../schema/enums.ts';
import type { UnitRoleName } from './roles.ts';

// One table per scope, read like the reference's permission matrix (behaviour.md §1).
// Unit, project and task scopes join this file as their operations arrive.

export const SYSTEM_ACTIONS = [
  'create_user',
  'upload_csv',
  'list_users',
  'update_user',
  'create_unit',
  'convene_units',
  'download_stats',
  'download_unit_csv',
  'act_tutor',
  'promote_user',
  'demote_user',
  'download_system_csv',
  'admin_units',
  'admin_users',
  'handle_teaching_period',
  'handle_campuses',
  'handle_activity_types',
  'rollover',
  'admin_overseer',
  'use_overseer',
  'get_teaching_periods',
  // The background job queue: failed and stuck jobs, and retrying one (Admin only).
  'admin_jobs',
  // LTI 1.3: registering platforms (LMSs) and rotating the tool's signing keys (Admin only).
  'admin_lti',
] as const;
export type SystemAction = (typeof SYSTEM_ACTIONS)[number];

const CONVENOR: SystemAction[] = [
  'create_user',
  'upload_csv',
  'list_users',
  'update_user',
  'create_unit',
  'convene_units',
  'download_stats',
  'download_unit_csv',
  'act_tutor',
  'promote_user',
  'demote_user',
  'use_overseer',
  'get_teaching_periods',
];

export const SYSTEM_PERMISSIONS: Record<SystemRole, ReadonlySet<SystemAction>> = {
  Admin: new Set(SYSTEM_ACTIONS),
  Convenor: new Set(CONVENOR),
  Tutor: new Set<SystemAction>(['act_tutor', 'download_unit_csv', 'get_teaching_periods']),
  Student: new Set<SystemAction>(['get_teaching_periods']),
};

/**
 * Which system roles a caller may give: creating a user (from = null) or changing one.
 * Admins may set any role; convenors may create students and tutors and move a user
 * between those two. Nobody else may change roles.
 */
export function canAssignRole(caller: SystemRole, from: SystemRole | null, to: SystemRole): boolean {
  if (caller === 'Admin') return true;
  if (caller !== 'Convenor') return false;
  if (from === null) return to === 'Student' || to === 'Tutor';
  return (from === 'Tutor' && to === 'Student') || (from === 'Student' && to === 'Tutor');
}

/** Ranked Student < Tutor < Convenor < Admin: moving up is a promotion, down a demotion. */
export function roleChangeAction(from: SystemRole, to: SystemRole): 'promote_user' | 'demote_user' {
  const rank: SystemRole[] = ['Student', 'Tutor', 'Convenor', 'Admin'];
  return rank.indexOf(to) > rank.indexOf(from) ? 'promote_user' : 'demote_user';
}

/** System roles that can teach (listed as tutors) and that can convene units. */
export const TUTOR_CAPABLE: readonly SystemRole[] = ['Tutor', 'Convenor', 'Admin'];
export const CONVENOR_CAPABLE: readonly SystemRole[] = ['Convenor', 'Admin'];

/** Unit roles a user must give up before taking a system role that could not perform them. */
export function unitRolesBlocking(to: SystemRole): UnitStaffRole[] {
  if (to === 'Student') return ['Tutor', 'Convenor'];
  if (to === 'Tutor') return ['Convenor'];
  return [];
}

/**
 * The order of reference §1.4: a Convenor or Tutor unit role, then an enrolled project, then
 * the system Admin role (admins see every unit); otherwise no role at all.
 */
export function unitRoleOf(staffRole: UnitStaffRole | null, enrolled: boolean, systemRole: SystemRole): UnitRoleName | null {
  if (staffRole) return staffRole;
  if (enrolled) return 'Student';
  if (systemRole === 'Admin') return 'Admin';
  return null;
}
