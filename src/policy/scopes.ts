// Permission tables inside a unit, one per scope, read like the reference's matrix
// (behaviour.md §1.4–1.8). Who holds which role is resolved elsewhere (index.ts); these tables say
// only what each role may do. Flags of the unit or group that widen a student's rights are passed in.
import { ROLE, type UnitRoleName } from './roles.ts';

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
  'see_staff_fields',
  'mark_for_other_staff',
  // LTI grade passback: the unit's LMS line items (find or create) and the passback state per task.
  'manage_lti_grades',
  // LTI: reading the roster of the unit's LMS course(s) now (NRPS), enrolling and withdrawing students.
  'sync_lti_roster',
  // Feedback templates (docs/marking/templates.md): staff read them, convenors keep them.
  'read_feedback_templates',
  'manage_feedback_templates',
  // The workload dashboard: a tutor's own row (view_workload), every tutor's and each definition's (view_staff_workload).
  'view_workload',
  'view_staff_workload',
  // Moderation samples and their report, resolving escalations, deleting another's staff note.
  'oversee_marking',
  // Rubrics: a definition's criteria, levels and score mapping (re-scores the marked tasks).
  'manage_rubrics',
  // Automated assessment in steps (docs/assessment-steps.md): a definition's steps.
  'manage_overseer_steps',
  // Check-ins (docs/check-ins.md): staff record engagements on the unit's projects (and read and
  // reply to them); a convenor deletes anyone's within a week; the report per tutorial, and every
  // tutorial's rows of it (a tutor sees the tutorials they teach).
  'write_engagements',
  'delete_others_engagements',
  'engagement_report',
  'engagement_report_all_tutorials',
  // Discussion prompts (docs/discussion-prompts.md): the questions a tutor asks; staff write them, as the original lets tutors.
  'manage_discussion_prompts',
  // Task prerequisites (docs/prerequisites.md): adding and removing a definition's links.
  'manage_task_prerequisites',
] as const;
export type UnitAction = (typeof UNIT_ACTIONS)[number];

// see_staff_fields: the unit's settings and the definitions' staff-only fields in its answers.
const STAFF_READS: UnitAction[] = [
  'get_students',
  'view_workload',
  'enrol_student',
  'download_stats',
  'download_unit_csv',
  'download_grades',
  'exceed_capacity',
  'see_staff_fields',
  'read_feedback_templates',
];
// Check-ins: any staff of the unit records them and sees the report (a tutor, their tutorials' rows);
// an Admin who is not staff too, as the unit's manager.
const CHECK_INS: UnitAction[] = ['write_engagements', 'engagement_report'];
// mark_for_other_staff: batch marking of another staff member's tutorials. (An Admin who is not
// staff never gets that far: batch marking needs provide_feedback.)
const CONVENING: UnitAction[] = [
  'upload_csv',
  'update',
  'employ_staff',
  'add_tutorial',
  'add_task_def',
  'change_project_enrolment',
  'rollover_unit',
  'mark_for_other_staff',
  'manage_lti_grades',
  'sync_lti_roster',
  'manage_feedback_templates',
  'view_staff_workload',
  'manage_rubrics',
  'manage_overseer_steps',
  'delete_others_engagements',
  'engagement_report_all_tutorials',
  'manage_task_prerequisites',
];

export const UNIT_PERMISSIONS: Record<UnitRoleName, ReadonlySet<UnitAction>> = {
  Student: set('get_unit'),
  Tutor: set('get_unit', ...STAFF_READS, ...CHECK_INS, 'provide_feedback', 'manage_discussion_prompts'),
  Convenor: set(
    'get_unit',
    ...STAFF_READS,
    ...CHECK_INS,
    'provide_feedback',
    ...CONVENING,
    'perform_overseer_assessment_test',
    'oversee_marking',
    'manage_discussion_prompts',
  ),
  // An Admin who is not staff of the unit manages it but does not mark in it.
  Admin: set('get_unit', ...STAFF_READS, ...CHECK_INS, ...CONVENING, 'manage_discussion_prompts'),
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
  // The unit staff's private notes on the project: never the student's.
  'staff_notes',
  // Check-ins (docs/check-ins.md): the student reads the engagements staff recorded on their
  // project and replies to them; staff (also through the unit's write_engagements) write them.
  'read_engagements',
  'reply_engagements',
  'write_engagements',
  // The discussion prompts of the project's tasks in discuss or demonstrate: questions for the tutor to ask.
  'discussion_prompts',
] as const;
export type ProjectAction = (typeof PROJECT_ACTIONS)[number];

export const PROJECT_PERMISSIONS: Record<ProjectRole, ReadonlySet<ProjectAction>> = {
  Student: set('get', 'make_submission', 'get_submission', 'change', 'read_engagements', 'reply_engagements'),
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

/**
 * What one PUT /api/projects/{id} needs. Only the first field present (in this order) is applied,
 * and each needs its own permission: enrolment is a unit's (an Admin who is not staff holds it),
 * the rest the project's. Null for an unknown trigger, which nobody may fire.
 */
export type ProjectNeed = ProjectAction | { unit: UnitAction } | null;

export interface ProjectChangeFields {
  trigger?: string;
  campus_id?: unknown;
  enrolled?: unknown;
  target_grade?: unknown;
  submitted_grade?: unknown;
  grade?: unknown;
}

export function projectChangeNeed(fields: ProjectChangeFields): ProjectNeed {
  if (fields.trigger !== undefined) return fields.trigger === 'trigger_week_end' ? 'trigger_week_end' : null;
  if (fields.campus_id !== undefined) return 'change_campus';
  if (fields.enrolled !== undefined) return { unit: 'change_project_enrolment' };
  if (fields.target_grade !== undefined || fields.submitted_grade !== undefined) return 'change';
  if (fields.grade !== undefined) return 'assess';
  return 'change';
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
  'assess',
  'see_assessment_diffs',
  // Every text of an assessment step's result, whatever its show_* flags (docs/assessment-steps.md).
  'see_hidden_step_output',
  // Hand the task to the unit's convenors with a reason (and see its escalations).
  'escalate',
  // Online tests (docs/online-tests.md): the student starts and commits attempts, and reviews a
  // completed one where the definition allows it; staff review any, override a result, delete an
  // attempt and assess requests for more attempts, which both may make.
  'make_scorm_attempt',
  'update_attempt',
  'review_own_attempt',
  'review_other_attempt',
  'override_success_status',
  'delete_attempt',
  'request_scorm_extension',
  'assess_scorm_extension',
] as const;
export type TaskAction = (typeof TASK_ACTIONS)[number];

const TASK_BOTH: TaskAction[] = ['get', 'put', 'get_submission', 'make_submission', 'delete_own_comment', 'get_discussion'];

export const TASK_PERMISSIONS: Record<TaskRole, ReadonlySet<TaskAction>> = {
  Student: set(
    ...TASK_BOTH,
    'start_discussion',
    'make_discussion_reply',
    'make_scorm_attempt',
    'update_attempt',
    'review_own_attempt',
    'request_scorm_extension',
  ),
  Tutor: set(
    ...TASK_BOTH,
    'delete_other_comment',
    'view_plagiarism',
    'delete_plagiarism',
    'assess_extension',
    'request_extension',
    'create_discussion',
    'delete_discussion',
    // Any status and a grade (§4.2): staff assess, students hand in.
    'assess',
    // The file-system changes of each step of an automated assessment, beside its output.
    'see_assessment_diffs',
    'see_hidden_step_output',
    'escalate',
    'review_other_attempt',
    'override_success_status',
    'delete_attempt',
    'request_scorm_extension',
    'assess_scorm_extension',
  ),
  GroupMember: set(),
};

/** The unit's flag matters only to a student's extension request; without it, that is refused. */
export function canInTask(
  role: TaskRole | null,
  action: TaskAction,
  unit: Pick<UnitFlags, 'allowStudentExtensionRequests'> = { allowStudentExtensionRequests: false },
): boolean {
  if (role === null) return false;
  if (role === 'Student' && action === 'request_extension') return unit.allowStudentExtensionRequests;
  return TASK_PERMISSIONS[role].has(action);
}

/**
 * A change to a group submission reaches every member's task: there staff stay staff, and the
 * student who acted counts only as a fellow member of the group.
 */
export function roleOnFellowMembersTask(role: TaskRole): TaskRole {
  return canInTask(role, 'assess') ? role : 'GroupMember';
}

// ---- Group set and group (§1.7) ---------------------------------------------------------------

/** create_group_for_others: create a group without joining it (staff); a student who creates one joins it. */
export const GROUP_SET_ACTIONS = ['get_groups', 'join_group', 'create_group', 'create_group_for_others'] as const;
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

/** delete_any_group: delete a group whoever is in it (a student member only one they are alone in). */
export const GROUP_ACTIONS = ['get_members', 'manage_group', 'lock_group', 'move_tutorial', 'can_exceed_capacity', 'delete_any_group'] as const;
export type GroupAction = (typeof GROUP_ACTIONS)[number];

/** A Student counts only as a member of that group (resolve the role accordingly). Tutors cannot exceed capacity. */
export const GROUP_PERMISSIONS: Record<UnitRoleName, ReadonlySet<GroupAction>> = {
  Student: set('get_members'),
  Tutor: set('get_members', 'manage_group', 'lock_group', 'move_tutorial', 'delete_any_group'),
  Convenor: set(...GROUP_ACTIONS),
  Admin: set(...GROUP_ACTIONS),
};

export function canInGroup(role: UnitRoleName | null, action: GroupAction, group: { locked: boolean }, groupSet: GroupSetFlags): boolean {
  if (role === null) return false;
  if (role === 'Student' && action === 'manage_group') return !group.locked && !groupSet.locked && groupSet.allowStudentsToManageGroups;
  return GROUP_PERMISSIONS[role].has(action);
}

/** Inside a group a Student counts only as a member of it; staff and Admins keep their unit role. */
export function roleInGroupFor(unitRole: UnitRoleName | null, isMember: boolean): UnitRoleName | null {
  if (unitRole === ROLE.student) return isMember ? ROLE.student : null;
  return unitRole;
}
