// Closed vocabularies stored in the database. Check constraints come from these lists,
// so the tables and the code can never disagree about what a value may be.

export const SYSTEM_ROLES = ['Student', 'Tutor', 'Convenor', 'Admin'] as const;
export type SystemRole = (typeof SYSTEM_ROLES)[number];

/** Staff roles a user can hold inside one unit (students are projects, never unit roles). */
export const UNIT_STAFF_ROLES = ['Tutor', 'Convenor'] as const;
export type UnitStaffRole = (typeof UNIT_STAFF_ROLES)[number];

// The domain's other vocabularies (statuses, kinds, modes) live in src/domain/vocabulary.ts.
export {
  CAMPUS_MODES,
  TASK_STATUSES,
  COMMENT_KINDS,
  UPLOAD_KINDS,
  OVERSEER_PULL_STATUSES,
  OVERSEER_ASSESSMENT_STATUSES,
  SIMILARITY_KINDS,
  WEBCAL_REMINDER_UNITS,
  SCORM_VERSIONS,
  SCORM_TRUST,
} from '../src/domain/vocabulary.ts';
export type {
  CampusMode,
  TaskStatus,
  CommentKind,
  UploadKind,
  OverseerPullStatus,
  WebcalReminderUnit,
  ScormVersion,
  ScormTrust,
} from '../src/domain/vocabulary.ts';
