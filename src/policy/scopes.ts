// Permission tables inside a unit, one per scope, read like the reference's matrix
// (behaviour.md §1.4–1.8). Who holds which role is resolved elsewhere (index.ts); these tables say
// only what each role may do. Flags of the unit or group that widen a student's rights are passed in.
import type { UnitRoleName } from './permissions.ts';

const set = <T extends string>(...items: T[]): ReadonlySet<T> => new Set(items);

// ---- Unit (§1.5) ------------------------------------------------------------------------------

export const UNIT_ACTIONS = [
  'get_unit',
  'get_students',
  'enrol_student',
  'download_stats',
  'download_unit_csv',
  'download_grades',
  'exceed_capacity',
  'provide_feedback',
  'upload_csv',
  'update',
  'employ_staff',
  'add_tutorial',
  'add_task_def',
  'change_project_enrolment',
  'rollover_unit',
  'perform_overseer_assessment_test',
] as const;
export type UnitAction = (typeof UNIT_ACTIONS)[number];

const STAFF_READS: UnitAction[] = ['get_students', 'enrol_student', 'download_stats', 'download_unit_csv', 'download_grades', 'exceed_capacity'];
const CONVENING: UnitAction[] = ['upload_csv', 'update', 'employ_staff', 'add_tutorial', 'add_task_def', 'change_project_enrolment', 'rollover_unit'];

export const UNIT_PERMISSIONS: Record<UnitRoleName, ReadonlySet<UnitAction>> = {
  Student: set('get_unit'),
  Tutor: set('get_unit', ...STAFF_READS, 'provide_feedback'),
  Convenor: set('get_unit', ...STAFF_READS, 'provide_feedback', ...CONVENING, 'perform_overseer_assessment_test'),
  // An Admin who is not staff of the unit manages it but does not mark in it.
  Admin: set('get_unit', ...STAFF_READS, ...CONVENING),
};

export function canInUnit(role: UnitRoleName | null, action: UnitAction): boolean {
  return role !== null && UNIT_PERMISSIONS[role].has(action);
}

// ---- Project (§1.6) ---------------------------------------------------------------------------

/** The owning student, or staff of the unit (a Convenor acts as a tutor here); admins get nothing. */
export type ProjectRole = 'Student' | 'Tutor';

export const PROJECT_ACTIONS = [
  'get',
  'make_submission',
  'get_submission',
  'change',
  'trigger_week_end',
  'change_tutorial',
  'assess',
  'change_campus',
] as const;
export type ProjectAction = (typeof PROJECT_ACTIONS)[number];

export const PROJECT_PERMISSIONS: Record<ProjectRole, ReadonlySet<ProjectAction>> = {
  Student: set('get', 'make_submission', 'get_submission', 'change'),
  Tutor: set(...PROJECT_ACTIONS),
};

export interface UnitFlags {
  allowStudentChangeTutorial: boolean;
  allowStudentExtensionRequests: boolean;
}

export function canInProject(role: ProjectRole | null, action: ProjectAction, unit: Pick<UnitFlags, 'allowStudentChangeTutorial'>): boolean {
  if (role === null) return false;
  if (role === 'Student' && action === 'change_tutorial') return unit.allowStudentChangeTutorial;
  return PROJECT_PERMISSIONS[role].has(action);
}

// ---- Task (§1.6) ------------------------------------------------------------------------------

/** As for projects, plus a member of the task's group, who may do nothing through that role. */
export type TaskRole = ProjectRole | 'GroupMember';

export const TASK_ACTIONS = [
  'get',
  'put',
  'get_submission',
  'make_submission',
  'delete_own_comment',
  'start_discussion',
  'make_discussion_reply',
  'get_discussion',
  'delete_other_comment',
  'view_plagiarism',
  'delete_plagiarism',
  'assess_extension',
  'request_extension',
  'create_discussion',
  'delete_discussion',
] as const;
export type TaskAction = (typeof TASK_ACTIONS)[number];

const TASK_BOTH: TaskAction[] = ['get', 'put', 'get_submission', 'make_submission', 'delete_own_comment', 'get_discussion'];

export const TASK_PERMISSIONS: Record<TaskRole, ReadonlySet<TaskAction>> = {
  Student: set(...TASK_BOTH, 'start_discussion', 'make_discussion_reply'),
  Tutor: set(
    ...TASK_BOTH,
    'delete_other_comment',
    'view_plagiarism',
    'delete_plagiarism',
    'assess_extension',
    'request_extension',
    'create_discussion',
    'delete_discussion',
  ),
  GroupMember: set(),
};

export function canInTask(role: TaskRole | null, action: TaskAction, unit: Pick<UnitFlags, 'allowStudentExtensionRequests'>): boolean {
  if (role === null) return false;
  if (role === 'Student' && action === 'request_extension') return unit.allowStudentExtensionRequests;
  return TASK_PERMISSIONS[role].has(action);
}

// ---- Group set and group (§1.7) ---------------------------------------------------------------

export const GROUP_SET_ACTIONS = ['get_groups', 'join_group', 'create_group'] as const;
export type GroupSetAction = (typeof GROUP_SET_ACTIONS)[number];

/** No Admin entry: an Admin who is not staff of the unit is refused on group sets. */
export const GROUP_SET_PERMISSIONS: Partial<Record<UnitRoleName, ReadonlySet<GroupSetAction>>> = {
  Student: set('get_groups'),
  Tutor: set(...GROUP_SET_ACTIONS),
  Convenor: set(...GROUP_SET_ACTIONS),
};

export interface GroupSetFlags {
  locked: boolean;
  allowStudentsToCreateGroups: boolean;
  allowStudentsToManageGroups: boolean;
}

export function canInGroupSet(role: UnitRoleName | null, action: GroupSetAction, groupSet: GroupSetFlags): boolean {
  if (role === null) return false;
  if (role === 'Student' && !groupSet.locked) {
    if (action === 'create_group' && groupSet.allowStudentsToCreateGroups) return true;
    if (action === 'join_group' && groupSet.allowStudentsToManageGroups) return true;
  }
  return GROUP_SET_PERMISSIONS[role]?.has(action) ?? false;
}

export const GROUP_ACTIONS = ['get_members', 'manage_group', 'lock_group', 'move_tutorial', 'can_exceed_capacity'] as const;
export type GroupAction = (typeof GROUP_ACTIONS)[number];

/** A Student counts only as a member of that group (resolve the role accordingly). Tutors cannot exceed capacity. */
export const GROUP_PERMISSIONS: Record<UnitRoleName, ReadonlySet<GroupAction>> = {
  Student: set('get_members'),
  Tutor: set('get_members', 'manage_group', 'lock_group', 'move_tutorial'),
  Convenor: set(...GROUP_ACTIONS),
  Admin: set(...GROUP_ACTIONS),
};

export function canInGroup(role: UnitRoleName | null, action: GroupAction, group: { locked: boolean }, groupSet: GroupSetFlags): boolean {
  if (role === null) return false;
  if (role === 'Student' && action === 'manage_group') return !group.locked && !groupSet.locked && groupSet.allowStudentsToManageGroups;
  return GROUP_PERMISSIONS[role].has(action);
}

// ---- Unit role (§1.8) -------------------------------------------------------------------------

export const UNIT_ROLE_ACTIONS = ['get', 'delete'] as const;
export type UnitRoleAction = (typeof UNIT_ROLE_ACTIONS)[number];

export const UNIT_ROLE_PERMISSIONS: Partial<Record<UnitRoleName, ReadonlySet<UnitRoleAction>>> = {
  Student: set('get'),
  Tutor: set('get'),
  Convenor: set('get', 'delete'),
};
