// The task workflow's rules (behaviour.md §4.2–4.5), as pure functions of a task's state. The
// one operation that changes tasks (src/operations/tasks/change-task.ts) loads the state, asks these
// what follows, and writes it; nothing else decides a status, a date or an extension.
import type { TaskStatus } from './vocabulary.ts';
import { addDays, addWeeks, earlierDay, toDay } from './dates.ts';
import { PASSING, READY_OR_COMPLETE, STUDENT_STATUSES } from './task-status.ts';

/** The parts of a task the rules read and change. Days are 'YYYY-MM-DD'. */
export interface TaskState {
  status: TaskStatus;
  extensions: number;
  timesAssessed: number;
  grade: number | null;
  /** -1 until rated. */
  qualityPts: number;
  submissionDate: Date | null;
  assessmentDate: Date | null;
  completionDate: string | null;
}

/** What the rules need to know of the task's definition and unit. */
export interface TaskTerms {
  targetDate: string;
  /** The hard deadline: the definition's due date, or the unit's end when it has none. */
  deadline: string;
  isGraded: boolean;
  maxQualityPts: number;
  restrictStatusUpdates: boolean;
  /** Weeks granted automatically when work is sent back to fix shortly before it is due. */
  extensionWeeksOnResubmit: number;
}

/** A status comment to record: by the one who acted, or (for automatic outcomes) by the student's tutor. */
export interface StatusNote {
  status: TaskStatus;
  by: 'actor' | 'tutor';
}

export interface Outcome {
  state: TaskState;
  notes: StatusNote[];
  /** A new submission happened (the submission history gains or refreshes an entry). */
  submitted: boolean;
  /** An assessment happened (the latest submission records its assessor and outcome). */
  assessed: boolean;
  /** Extension weeks granted by this change, if any. */
  extensionGranted: number;
}

const unchanged = (state: TaskState): Outcome => ({ state, notes: [], submitted: false, assessed: false, extensionGranted: 0 });

// ---- Dates ------------------------------------------------------------------------------------

/**
 * The last moment of a day anywhere on earth: 23:59:59 at UTC-12, which is 11:59:59 UTC the next
 * day. Work is on time if it arrives by then, wherever the student is.
 */
export function endOfDayAnywhereOnEarth(day: string): Date {
  return new Date(`${addDays(day, 1)}T11:59:59.999Z`);
}

/** Target date plus the granted weeks, before the deadline caps it. */
export const rawExtensionDate = (terms: Pick<TaskTerms, 'targetDate'>, extensions: number): string => addWeeks(terms.targetDate, extensions);

/** When the task is due: the target date, pushed back by granted weeks but never past the deadline. */
export function dueDay(terms: Pick<TaskTerms, 'targetDate' | 'deadline'>, extensions: number): string {
  if (extensions === 0) return terms.targetDate;
  const raw = rawExtensionDate(terms, extensions);
  return earlierDay(raw, terms.deadline);
}

/** Was work submitted at `at` late for a task with these extensions? */
export function isLate(at: Date, terms: Pick<TaskTerms, 'targetDate' | 'deadline'>, extensions: number): boolean {
  return at.getTime() > endOfDayAnywhereOnEarth(dueDay(terms, extensions)).getTime();
}

// ---- Extensions -------------------------------------------------------------------------------

const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** Whole weeks that can still be granted (rounded up; zero or less means none). */
export function weeksCanExtend(terms: Pick<TaskTerms, 'targetDate' | 'deadline'>, extensions: number): number {
  return Math.ceil(daysBetween(rawExtensionDate(terms, extensions), terms.deadline) / 7);
}

/** May any more time be granted? Only while the extended date is before the deadline. */
export function canExtend(terms: Pick<TaskTerms, 'targetDate' | 'deadline'>, extensions: number): boolean {
  return rawExtensionDate(terms, extensions) < terms.deadline;
}

export type ExtensionRequest = { ok: true; weeks: number } | { ok: false; error: string };

/** A request for `weeks`, clamped to what can still be granted (§4.5). */
export function clampExtensionRequest(weeks: number, terms: Pick<TaskTerms, 'targetDate' | 'deadline'>, extensions: number): ExtensionRequest {
  if (weeks === 0) return { ok: false, error: 'Extension weeks can not be 0.' };
  if (weeks < 0) return { ok: false, error: 'Extension weeks must be a positive number.' };
  const allowed = Math.min(weeks, weeksCanExtend(terms, extensions));
  if (allowed <= 0) return { ok: false, error: 'Extensions cannot be granted beyond task deadline.' };
  return { ok: true, weeks: allowed };
}

/**
 * Grants up to `weeks` more (never past the deadline). A task marked late whose submission now
 * falls within the new due date is ready for feedback again.
 */
export function grantExtension(state: TaskState, weeks: number, terms: TaskTerms): Outcome {
  if (!canExtend(terms, state.extensions)) return unchanged(state);
  const granted = Math.max(0, Math.min(weeks, weeksCanExtend(terms, state.extensions)));
  if (granted === 0) return unchanged(state);
  const next: TaskState = { ...state, extensions: state.extensions + granted };
  const notes: StatusNote[] = [];
  if (next.status === 'time_exceeded' && next.submissionDate && !isLate(next.submissionDate, terms, next.extensions)) {
    next.status = 'ready_for_feedback';
    notes.push({ status: 'ready_for_feedback', by: 'actor' });
  }
  return { state: next, notes, submitted: false, assessed: false, extensionGranted: granted };
}

// ---- Effects ----------------------------------------------------------------------------------

/**
 * Work handed in (§4.3): dated now; on time it waits for feedback (not yet an assessment, so no
 * completion date), late it is assessed as time exceeded by the student's tutor, and a graded
 * task without a grade gets a fail.
 */
export function submit(state: TaskState, now: Date, terms: TaskTerms): Outcome {
  const submitted: TaskState = { ...state, status: 'ready_for_feedback', submissionDate: now };
  if (!isLate(now, terms, state.extensions)) {
    return { state: submitted, notes: [{ status: 'ready_for_feedback', by: 'actor' }], submitted: true, assessed: false, extensionGranted: 0 };
  }
  const late = assess(submitted, 'time_exceeded', now, terms);
  if (terms.isGraded && late.state.grade === null) late.state.grade = -1;
  return {
    ...late,
    notes: [
      { status: 'ready_for_feedback', by: 'actor' },
      { status: 'time_exceeded', by: 'tutor' },
    ],
    submitted: true,
  };
}

/**
 * An assessment (§4.4): counted once per new submission, dated now; completion dated for the
 * ready-or-complete statuses and cleared for the others. Work sent back to fix within a week of
 * its due date gets the unit's automatic extension.
 */
export function assess(state: TaskState, status: TaskStatus, now: Date, terms: TaskTerms): Outcome {
  const submissionDate = state.submissionDate ?? now;
  const newSubmission = state.assessmentDate === null || state.assessmentDate.getTime() < submissionDate.getTime();
  let next: TaskState = {
    ...state,
    status,
    submissionDate,
    timesAssessed: state.timesAssessed + (newSubmission ? 1 : 0),
    assessmentDate: now,
    completionDate: READY_OR_COMPLETE.has(status) ? (state.completionDate ?? toDay(now)) : null,
  };
  let extensionGranted = 0;
  if (status === 'fix_and_resubmit' && terms.extensionWeeksOnResubmit > 0) {
    const dueSoon = endOfDayAnywhereOnEarth(dueDay(terms, next.extensions)).getTime() < now.getTime() + 7 * DAY_MS;
    if (dueSoon && canExtend(terms, next.extensions)) {
      const granted = grantExtension(next, terms.extensionWeeksOnResubmit, terms);
      next = { ...granted.state, status };
      extensionGranted = granted.extensionGranted;
    }
  }
  return { state: next, notes: [{ status, by: 'actor' }], submitted: false, assessed: true, extensionGranted };
}

/** Sets a status without assessing (the student statuses); dates stay as they are. */
function setStatus(state: TaskState, status: TaskStatus): Outcome {
  const next = { ...state, status };
  return { state: next, notes: [{ status, by: 'actor' }], submitted: false, assessed: false, extensionGranted: 0 };
}

export interface TriggerRequest {
  target: TaskStatus;
  /** Quality points sent with the trigger; recorded for passing assessments of starred definitions. */
  qualityPts?: number | null;
}

/** A status change asked for through a trigger (permission already checked with mayTrigger). */
export function trigger(state: TaskState, request: TriggerRequest, now: Date, terms: TaskTerms): Outcome {
  const { target } = request;
  if (target === 'ready_for_feedback') return submit(state, now, terms);
  if (STUDENT_STATUSES.has(target)) return setStatus(state, target);
  const outcome = assess(state, target, now, terms);
  if (terms.maxQualityPts > 0 && PASSING.has(target) && request.qualityPts !== undefined && request.qualityPts !== null) {
    outcome.state.qualityPts = request.qualityPts;
  }
  return outcome;
}

// ---- Grades and quality points ----------------------------------------------------------------

export const GRADE_NAMES: Record<number, string> = { [-1]: 'Fail', 0: 'Pass', 1: 'Credit', 2: 'Distinction', 3: 'High Distinction' };
export const GRADE_LETTERS: Record<number, string> = { [-1]: 'F', 0: 'P', 1: 'C', 2: 'D', 3: 'HD' };
const BY_LETTER: Record<string, number> = { f: -1, p: 0, c: 1, d: 2, hd: 3 };

export type GradeParse = { ok: true; grade: number } | { ok: false; error: string };

/** A task grade: -1 to 3, or the letters F, P, C, D, HD. */
export function parseGrade(value: number | string): GradeParse {
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= -1 && value <= 3) return { ok: true, grade: value };
  } else {
    const s = value.trim().toLowerCase();
    if (/^-?\d+$/.test(s)) return parseGrade(Number(s));
    if (s in BY_LETTER) return { ok: true, grade: BY_LETTER[s] };
  }
  return { ok: false, error: `Invalid grade '${value}': use -1 (F), 0 (P), 1 (C), 2 (D) or 3 (HD).` };
}

/** Quality points must be -1 (not rated) up to the definition's maximum. */
export function qualityPtsError(pts: number, maxQualityPts: number): string | undefined {
  if (!Number.isInteger(pts) || pts < -1 || pts > maxQualityPts) return `Quality points must be between -1 and ${maxQualityPts}.`;
  return undefined;
}

/** The spec requires a grade when a graded task is assessed as passed (complete, discuss, demonstrate). */
export function gradeRequired(target: TaskStatus, terms: Pick<TaskTerms, 'isGraded'>): boolean {
  return terms.isGraded && PASSING.has(target);
}
