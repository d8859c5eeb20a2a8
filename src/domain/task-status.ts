// The twelve task statuses (behaviour.md §4.1): their names, the groups the rules test, and the
// trigger words clients send for them. Pure data and lookups; the rules are in task-rules.ts.
import { TASK_STATUSES, type TaskStatus } from './vocabulary.ts';

export const STATUS_NAMES: Record<TaskStatus, string> = {
  not_started: 'Not Started',
  complete: 'Complete',
  need_help: 'Need Help',
  working_on_it: 'Working On It',
  fix_and_resubmit: 'Fix and Resubmit',
  feedback_exceeded: 'Feedback Exceeded',
  redo: 'Redo',
  discuss: 'Discuss',
  ready_for_feedback: 'Ready for Feedback',
  demonstrate: 'Demonstrate',
  fail: 'Fail',
  time_exceeded: 'Time Exceeded',
};

/** The original's numeric id (1..12); unknown ids mean not_started. */
export const statusId = (status: TaskStatus): number => TASK_STATUSES.indexOf(status) + 1;
export const statusOfId = (id: number): TaskStatus => TASK_STATUSES[id - 1] ?? 'not_started';

/**
 * "Staff-assigned" is the original's id > 4: it includes ready_for_feedback and excludes complete
 * (closed anyway). A restricted definition stops students changing a task in any of these.
 */
export const isStaffAssigned = (status: TaskStatus): boolean => statusId(status) > 4;

/** Closed for student changes, and skipped when a group change or an upload would touch it. */
export const CLOSED = new Set<TaskStatus>(['complete', 'discuss', 'demonstrate', 'feedback_exceeded', 'fail']);

/** A task in one of these has a completion date. */
export const READY_OR_COMPLETE = new Set<TaskStatus>(['complete', 'discuss', 'demonstrate', 'ready_for_feedback']);

/** Statuses anyone with a role on the task may set, without an assessment. */
export const STUDENT_STATUSES = new Set<TaskStatus>(['not_started', 'need_help', 'working_on_it']);

/** Assessments that record quality points and, on a graded definition, need a grade. */
export const PASSING = new Set<TaskStatus>(['complete', 'discuss', 'demonstrate']);

/** A group change to these stays with the member who made it. */
export const NOT_PROPAGATED = new Set<TaskStatus>(['working_on_it', 'need_help']);

/** A group change never overrides a member whose task is already in one of these. */
export const PROPAGATION_SKIPS = new Set<TaskStatus>(['complete', 'feedback_exceeded', 'fail']);

/** Statuses that, where a unit requires feedback, staff may only set with a comment (docs/marking/templates.md). */
export const FEEDBACK_REQUIRED = new Set<TaskStatus>(['discuss', 'demonstrate', 'redo', 'fix_and_resubmit', 'feedback_exceeded']);

/** Statuses in which a tutor talks the work over with the student (required discussion, discuss timeouts, prompts). */
export const DISCUSSING: ReadonlySet<TaskStatus> = new Set(['discuss', 'demonstrate']);

/** What an uploaded submission leaves alone (the task is closed to new work). */
export const UPLOAD_SKIPS = new Set<TaskStatus>(['discuss', 'demonstrate', 'complete', 'feedback_exceeded', 'fail']);

const ALIASES: [TaskStatus, string[]][] = [
  ['complete', ['complete']],
  ['fix_and_resubmit', ['fix_and_resubmit', 'fix and resubmit', 'fix', 'f']],
  ['feedback_exceeded', ['do_not_resubmit', 'do not resubmit', 'feedback_exceeded', 'feedback exceeded']],
  ['redo', ['redo']],
  ['need_help', ['need_help', 'need help']],
  ['working_on_it', ['working_on_it', 'working on it']],
  ['discuss', ['discuss', 'd']],
  ['demonstrate', ['demonstrate', 'demo']],
  ['ready_for_feedback', ['ready for feedback', 'ready_for_feedback', 'ready to mark', 'ready_to_mark', 'rtm', 'rff']],
  ['fail', ['fail']],
  ['not_started', ['not_started', 'not started', 'ns']],
  ['time_exceeded', ['time exceeded', 'time_exceeded']],
];
const BY_ALIAS = new Map(ALIASES.flatMap(([status, words]) => words.map((w) => [w, status] as const)));

/** The status a trigger word names (case and surrounding space ignored), or undefined. */
export function statusForTrigger(word: string): TaskStatus | undefined {
  return BY_ALIAS.get(word.trim().toLowerCase());
}

/** Every accepted trigger word, for documentation and error messages. */
export const TRIGGER_WORDS: readonly string[] = ALIASES.flatMap(([, words]) => words);
