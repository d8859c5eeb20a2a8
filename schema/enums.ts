// Closed vocabularies stored in the database. Check constraints come from these lists,
// so the tables and the code can never disagree about what a value may be.

export const SYSTEM_ROLES = ['Student', 'Tutor', 'Convenor', 'Admin'] as const;
export type SystemRole = (typeof SYSTEM_ROLES)[number];

/** Staff roles a user can hold inside one unit (students are projects, never unit roles). */
export const UNIT_STAFF_ROLES = ['Tutor', 'Convenor'] as const;
export type UnitStaffRole = (typeof UNIT_STAFF_ROLES)[number];

export const CAMPUS_MODES = ['timetable', 'automatic', 'manual'] as const;
export type CampusMode = (typeof CAMPUS_MODES)[number];

/** The twelve task statuses of the original system, in their historical id order (1..12). */
export const TASK_STATUSES = [
  'not_started',
  'complete',
  'need_help',
  'working_on_it',
  'fix_and_resubmit',
  'feedback_exceeded',
  'redo',
  'discuss',
  'ready_for_feedback',
  'demonstrate',
  'fail',
  'time_exceeded',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const COMMENT_KINDS = ['text', 'image', 'audio', 'pdf', 'status', 'extension', 'discussion', 'assessment'] as const;
export type CommentKind = (typeof COMMENT_KINDS)[number];

export const UPLOAD_KINDS = ['document', 'code', 'image'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

export const OVERSEER_PULL_STATUSES = ['pending', 'pulled', 'failed'] as const;
export type OverseerPullStatus = (typeof OVERSEER_PULL_STATUSES)[number];

export const OVERSEER_ASSESSMENT_STATUSES = ['pre_queued', 'queued', 'queue_failed', 'done'] as const;

export const SIMILARITY_KINDS = ['moss', 'simcheck'] as const;

export const WEBCAL_REMINDER_UNITS = ['w', 'd', 'h', 'm'] as const;
export type WebcalReminderUnit = (typeof WEBCAL_REMINDER_UNITS)[number];
