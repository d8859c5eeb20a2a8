// Closed vocabularies of the domain, stored in the database as they are spelled here. The schema's
// check constraints come from these lists (schema/enums.ts re-exports them), so the tables and the
// rules can never disagree about what a value may be. Pure constants: no import.

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

export const COMMENT_KINDS = [
  'text',
  'image',
  'audio',
  'pdf',
  'status',
  'extension',
  'discussion',
  'assessment',
  // A test attempt's result, and a request for more attempts (docs/online-tests.md).
  'scorm',
  'scorm_extension',
] as const;
export type CommentKind = (typeof COMMENT_KINDS)[number];

export const UPLOAD_KINDS = ['document', 'code', 'image'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

export const OVERSEER_PULL_STATUSES = ['pending', 'pulled', 'failed'] as const;
export type OverseerPullStatus = (typeof OVERSEER_PULL_STATUSES)[number];

export const OVERSEER_ASSESSMENT_STATUSES = ['pre_queued', 'queued', 'queue_failed', 'done'] as const;

export const SIMILARITY_KINDS = ['moss', 'simcheck'] as const;

export const WEBCAL_REMINDER_UNITS = ['w', 'd', 'h', 'm'] as const;
export type WebcalReminderUnit = (typeof WEBCAL_REMINDER_UNITS)[number];

/**
 * Where a task's grade passback to an LMS gradebook stands (LTI AGS, docs/lti.md): queued, posted,
 * posting failed and will be tried again, given up, or nothing to send (no identity, not started).
 */
export const LTI_PASSBACK_STATES = ['pending', 'sent', 'retrying', 'failed', 'skipped'] as const;
export type LtiPassbackState = (typeof LTI_PASSBACK_STATES)[number];

/** The SCORM versions a package's manifest may declare (docs/online-tests.md). */
export const SCORM_VERSIONS = ['1.2', '2004'] as const;
export type ScormVersion = (typeof SCORM_VERSIONS)[number];

/**
 * Whose word a test attempt's result is (docs/online-tests.md, "Trust"): `package`, what the
 * package reported from the student's browser; `staff`, a pass counts only once staff confirm it.
 */
export const SCORM_TRUST = ['package', 'staff'] as const;
export type ScormTrust = (typeof SCORM_TRUST)[number];
