import type { SystemRole } from '../../schema/enums.ts';

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
