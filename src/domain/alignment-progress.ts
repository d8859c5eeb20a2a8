// How far students have come on each learning outcome (behaviour.md §10): every task of a
// definition the unit aligns to an outcome adds rating × status weight × grade weight to the
// student's score for that outcome, and classes are summarised with `statistic`.
//
// Scores are kept in whole tenths: every weight has at most one decimal and ratings are whole,
// so a tenth count is exact where summing binary fractions would not be (0.1 + 0.2), and the
// score "rounded to 1 decimal" is that count divided by ten.
import type { TaskStatus } from '../../schema/enums.ts';
import { statistic, type Statistic } from './statistics.ts';

/** What a task in each status counts for, in tenths (complete 1.0, ready_for_feedback 0.7, …). */
export const STATUS_WEIGHT_TENTHS: Readonly<Record<TaskStatus, number>> = {
  not_started: 0,
  fail: 0,
  working_on_it: 0,
  need_help: 0,
  redo: 1,
  feedback_exceeded: 1,
  fix_and_resubmit: 3,
  time_exceeded: 5,
  ready_for_feedback: 7,
  discuss: 8,
  demonstrate: 8,
  complete: 10,
};

/** A definition's target grade weighs its task: Pass 1, Credit 2, Distinction 4, High Distinction 8. */
export const GRADE_WEIGHT: readonly number[] = [1, 2, 4, 8];

/** The weight of a target grade; grades beyond the four (never stored by the API) take the nearest. */
export function gradeWeight(targetGrade: number): number {
  return GRADE_WEIGHT[Math.min(Math.max(Math.trunc(targetGrade), 0), GRADE_WEIGHT.length - 1)];
}

/**
 * Aligned work of one student on one outcome, as the database groups it: the student's tasks
 * in one status, of definitions with one target grade, aligned (at unit level) to the outcome,
 * with their ratings summed. `tutorialId` is the student's tutorial for those definitions' stream
 * (null without one).
 */
export interface AlignedWork {
  tutorialId: number | null;
  projectId: number;
  outcomeId: number;
  status: TaskStatus;
  targetGrade: number;
  ratingSum: number;
}

/** The tenths this work adds to the student's score. */
export function workTenths(work: Pick<AlignedWork, 'status' | 'targetGrade' | 'ratingSum'>): number {
  return work.ratingSum * STATUS_WEIGHT_TENTHS[work.status] * gradeWeight(work.targetGrade);
}

/** One student's score per outcome id, in tenths; an outcome without aligned work is absent. */
export type StudentScores = Map<number, number>;

/**
 * Each student's scores, once over all their work (`all`) and once per tutorial their work
 * falls in (`byTutorial`; null for work in no tutorial). Only students with aligned tasks appear:
 * a student with no task rows is not a row of zeros.
 */
export function studentScores(work: readonly AlignedWork[]): { all: StudentScores[]; byTutorial: Map<number | null, StudentScores[]> } {
  const all = new Map<number, StudentScores>();
  const byTutorial = new Map<number | null, Map<number, StudentScores>>();
  const add = (scores: Map<number, StudentScores>, w: AlignedWork, tenths: number) => {
    let student = scores.get(w.projectId);
    if (!student) {
      student = new Map();
      scores.set(w.projectId, student);
    }
    student.set(w.outcomeId, (student.get(w.outcomeId) ?? 0) + tenths);
  };
  for (const w of work) {
    const tenths = workTenths(w);
    add(all, w, tenths);
    let tutorial = byTutorial.get(w.tutorialId);
    if (!tutorial) {
      tutorial = new Map();
      byTutorial.set(w.tutorialId, tutorial);
    }
    add(tutorial, w, tenths);
  }
  return { all: [...all.values()], byTutorial: new Map([...byTutorial].map(([id, scores]) => [id, [...scores.values()]])) };
}

/** Every outcome's statistic over these students (an outcome a student has no work on counts 0 for them). */
export function outcomeStatistics(outcomeIds: readonly number[], students: readonly StudentScores[]): Record<string, Statistic> {
  const out: Record<string, Statistic> = {};
  for (const id of outcomeIds) out[id] = statistic(students.map((s) => (s.get(id) ?? 0) / 10));
  return out;
}

/** `class_stats`: outcome id → statistic over every enrolled student with aligned tasks. */
export function classStats(outcomeIds: readonly number[], work: readonly AlignedWork[]): Record<string, Statistic> {
  return outcomeStatistics(outcomeIds, studentScores(work).all);
}

/**
 * `class_details`: tutorial id → outcome id → statistic for every tutorial of the unit (zeros
 * where no student has work there), and `all` as `class_stats`.
 */
export function classDetails(
  outcomeIds: readonly number[],
  tutorialIds: readonly number[],
  work: readonly AlignedWork[],
): Record<string, Record<string, Statistic>> {
  const { all, byTutorial } = studentScores(work);
  const out: Record<string, Record<string, Statistic>> = {};
  for (const id of tutorialIds) out[id] = outcomeStatistics(outcomeIds, byTutorial.get(id) ?? []);
  out.all = outcomeStatistics(outcomeIds, all);
  return out;
}
