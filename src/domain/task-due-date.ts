import { addWeeks } from './dates.ts';

/**
 * When a student's task is due (behaviour.md §4.5): the definition's target date pushed back by
 * the granted extension weeks, but never past the deadline (the definition's due date, or the
 * unit's end when it has none). Days are 'YYYY-MM-DD'.
 */
export function taskDueDate(targetDate: string, extensionWeeks: number, dueDate: string | null, unitEndDate: string): string {
  const deadline = dueDate ?? unitEndDate;
  const extended = addWeeks(targetDate, extensionWeeks);
  return extended < deadline ? extended : deadline;
}
