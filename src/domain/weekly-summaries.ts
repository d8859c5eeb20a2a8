// The weekly run's rules, without I/O: which units get summaries in a week, which tasks a
// student should look at next, and when a student with a portfolio still gets one.
import { addDays } from './dates.ts';
import { dueDay } from './task-rules.ts';
import type { TaskStatus } from './vocabulary.ts';

export interface UnitDates {
  active: boolean;
  sendNotifications: boolean;
  startDate: string;
  endDate: string;
}

/** Summaries go to active units with notifications on that started at least 4 days before `today` and have not ended. */
export function unitGetsSummaries(unit: UnitDates, today: string): boolean {
  return unit.active && unit.sendNotifications && addDays(unit.startDate, 4) <= today && today <= unit.endDate;
}

/** More than 28 days in and more than 14 days to go: a student with a portfolio still hears about the week. */
export function isMidUnit(unit: Pick<UnitDates, 'startDate' | 'endDate'>, today: string): boolean {
  return addDays(unit.startDate, 28) < today && today < addDays(unit.endDate, -14);
}

export interface PlannedTask {
  abbreviation: string;
  name: string;
  /** The definition's target grade (0 Pass .. 3 High Distinction). */
  targetGrade: number;
  targetDate: string;
  /** The definition's deadline (its due date, or the unit's end): extensions stop there. */
  deadline: string;
  /** The student's task, when one exists. */
  status: TaskStatus;
  extensions: number;
}

export type TopReason = 'overdue' | 'soon' | 'ahead';
export interface TopTask extends PlannedTask {
  reason: TopReason;
}

/** Work the student has finished with, or that waits on the staff. */
const SETTLED = new Set<TaskStatus>(['complete', 'ready_for_feedback', 'feedback_exceeded', 'fail', 'time_exceeded']);

/**
 * Up to five tasks to work on next, for a student aiming at `targetGrade`: overdue first, then
 * due within a week, then later ones; within each, lower grades first, then by due day.
 */
export function topTasks(tasks: PlannedTask[], targetGrade: number, today: string, limit = 5): TopTask[] {
  const soonEnd = addDays(today, 7);
  const reasonOf = (due: string): TopReason => (due < today ? 'overdue' : due < soonEnd ? 'soon' : 'ahead');
  const order: Record<TopReason, number> = { overdue: 0, soon: 1, ahead: 2 };
  return tasks
    .filter((t) => t.targetGrade <= targetGrade && !SETTLED.has(t.status))
    .map((t) => {
      // The one due-date rule of the service (src/domain/task-rules.ts).
      const due = dueDay(t, t.extensions);
      return { ...t, reason: reasonOf(due), due };
    })
    .sort(
      (a, b) =>
        order[a.reason] - order[b.reason] || a.targetGrade - b.targetGrade || a.due.localeCompare(b.due) || a.abbreviation.localeCompare(b.abbreviation),
    )
    .slice(0, limit)
    .map(({ due: _due, ...t }) => t);
}

/** Whole days from `from` to `to` (YYYY-MM-DD or timestamps), never negative. */
export function daysBetween(from: string | Date, to: string): number {
  const start = typeof from === 'string' ? Date.parse(from.slice(0, 10)) : Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  return Math.max(0, Math.round((Date.parse(to) - start) / 86_400_000));
}
