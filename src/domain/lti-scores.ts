// What the gradebook of an LMS is told about a task (LTI Assignment and Grade Services, the score
// publish service): the mapping from a task's status, grade and quality points to an AGS score.
// Pure; the passback job (src/operations/lti/score-passback.ts) adds the user and the timestamp.
// docs/lti.md "Grade passback (AGS)" has the same table for people.
import type { TaskStatus } from './vocabulary.ts';

/** AGS `activityProgress`: how far the student's work is. */
export type ActivityProgress = 'Initialized' | 'Started' | 'InProgress' | 'Submitted' | 'Completed';
/** AGS `gradingProgress`: whether `scoreGiven` is the final grade. */
export type GradingProgress = 'FullyGraded' | 'Pending' | 'PendingManual' | 'Failed' | 'NotReady';

/** Every score is out of 100, the `scoreMaximum` line items are made with (deep linking and POST line_items). */
export const SCORE_MAXIMUM = 100;

/** The task's state the score depends on. */
export interface ScoredTask {
  status: TaskStatus;
  /** -1 (F) .. 3 (HD); null when not graded. */
  grade: number | null;
  /** -1 until rated. */
  qualityPts: number;
}

/** What of the task's definition decides how it is scored. */
export interface ScoreTerms {
  isGraded: boolean;
  maxQualityPts: number;
}

export interface PassbackScore {
  activityProgress: ActivityProgress;
  gradingProgress: GradingProgress;
  /** Present only when the grade is final (FullyGraded); with it, `scoreMaximum`. */
  scoreGiven?: number;
  scoreMaximum?: number;
}

/** The lowest and highest task grades (F and HD). */
const LOWEST_GRADE = -1;
const TOP_GRADE = 3;

/**
 * Statuses without a final grade: how far the work is, and who the grade waits for. Work sent back
 * (fix and resubmit, redo) waits for the student (Pending); handed-in work, late work and work to
 * discuss or demonstrate wait for staff (PendingManual). Feedback exceeded is judged in the
 * portfolio, not here, so it stays pending too.
 */
const UNGRADED: Partial<Record<TaskStatus, Pick<PassbackScore, 'activityProgress' | 'gradingProgress'>>> = {
  not_started: { activityProgress: 'Initialized', gradingProgress: 'NotReady' },
  working_on_it: { activityProgress: 'InProgress', gradingProgress: 'NotReady' },
  need_help: { activityProgress: 'InProgress', gradingProgress: 'NotReady' },
  ready_for_feedback: { activityProgress: 'Submitted', gradingProgress: 'PendingManual' },
  time_exceeded: { activityProgress: 'Submitted', gradingProgress: 'PendingManual' },
  fix_and_resubmit: { activityProgress: 'InProgress', gradingProgress: 'Pending' },
  redo: { activityProgress: 'InProgress', gradingProgress: 'Pending' },
  discuss: { activityProgress: 'Completed', gradingProgress: 'PendingManual' },
  demonstrate: { activityProgress: 'Completed', gradingProgress: 'PendingManual' },
  feedback_exceeded: { activityProgress: 'Completed', gradingProgress: 'PendingManual' },
};

/**
 * F, P, C, D, HD as percentages: the floors of the grade bands Australian universities use (P 50,
 * C 60, D 70, HD 80), so an LMS gradebook's letter scheme shows the letter the tutor gave. Spacing
 * them evenly (P 25) would show a pass as a fail in every gradebook.
 */
const GRADE_SCORES = [0, 50, 60, 70, 80];

const round2 = (n: number) => Math.round(n * 100) / 100;
const graded = (scoreGiven: number): PassbackScore => ({
  activityProgress: 'Completed',
  gradingProgress: 'FullyGraded',
  scoreGiven: round2(scoreGiven),
  scoreMaximum: SCORE_MAXIMUM,
});
const awaitingMark: PassbackScore = { activityProgress: 'Completed', gradingProgress: 'PendingManual' };

/**
 * The score for a task's state. Complete: a graded definition scores its grade's band floor: F 0,
 * P 50, C 60, D 70, HD 80; a definition with quality points scores the points
 * given out of its maximum; any other scores 100. A complete task still missing its grade or its
 * rating waits for it (PendingManual). Fail scores 0. The other statuses carry no score.
 */
export function scoreFor(task: ScoredTask, terms: ScoreTerms): PassbackScore {
  if (task.status === 'fail') return graded(0);
  if (task.status !== 'complete') return { ...UNGRADED[task.status]! };
  if (terms.isGraded) {
    if (task.grade === null) return { ...awaitingMark };
    const grade = Math.min(TOP_GRADE, Math.max(LOWEST_GRADE, Math.round(task.grade)));
    return graded(GRADE_SCORES[grade - LOWEST_GRADE]!);
  }
  if (terms.maxQualityPts > 0) {
    if (task.qualityPts < 0) return { ...awaitingMark };
    return graded((Math.min(task.qualityPts, terms.maxQualityPts) / terms.maxQualityPts) * SCORE_MAXIMUM);
  }
  return graded(SCORE_MAXIMUM);
}

/** Whether a change of the task could change its score: the passback is queued only then. */
export function scoreMayChange(before: ScoredTask, after: ScoredTask): boolean {
  return before.status !== after.status || before.grade !== after.grade || before.qualityPts !== after.qualityPts;
}

/** AGS score publish: the scores endpoint is the line item's URL with `/scores` added to its path (query kept). */
export function scoresUrl(lineitemUrl: string): string {
  const url = new URL(lineitemUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/scores`;
  return url.toString();
}

/** The resource id the tool gives the line item of a task definition (deep linking and POST line_items alike). */
export const lineItemResourceId = (taskDefinitionId: number): string => `task-definition-${taskDefinitionId}`;
