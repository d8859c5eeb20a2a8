// Required discussion (docs/discussion-prompts.md, as the original's `requires_discussion` of PR
// #587, which only its client honoured): on a definition that requires it, staff may sign a task
// off as complete only once it has been in discuss or demonstrate since its last submission. The
// rule sits here, beside enforced feedback, so that every staff path (a trigger, batch marking,
// templates, a test override, the week end) meets it in changeTask.
import type { TaskStatus } from '../../schema/enums.ts';
import { DISCUSSING } from '../domain/task-status.ts';
import { canInTask, type TaskRole } from './scopes.ts';

export interface DiscussionCheck {
  /** The definition's `requires_discussion`. */
  requiresDiscussion: boolean;
  role: TaskRole;
  from: TaskStatus;
  to: TaskStatus;
  /** The task's `moved_to_discuss_at`: when it last entered discuss or demonstrate. */
  movedToDiscussAt: Date | null;
  /** The task's `submission_date`: its last submission. */
  submissionDate: Date | null;
}

export const DISCUSSION_REQUIRED =
  'This task must be discussed with the student before it is complete: move it to Discuss or Demonstrate first (since its last submission).';

/** Has the task been talked over since it was last handed in? In discuss now counts (an upload there keeps the status and the date). */
export function discussedSinceSubmission(check: Pick<DiscussionCheck, 'from' | 'movedToDiscussAt' | 'submissionDate'>): boolean {
  if (DISCUSSING.has(check.from)) return true;
  if (check.movedToDiscussAt === null) return false;
  return check.submissionDate === null || check.movedToDiscussAt.getTime() >= check.submissionDate.getTime();
}

/**
 * Why this change to complete is refused, or null. Only staff (who `assess`) are asked: a student
 * cannot set complete at all. Leaving a complete task complete changes nothing.
 */
export function requiredDiscussionRefusal(check: DiscussionCheck): string | null {
  if (!check.requiresDiscussion || check.to !== 'complete' || check.from === 'complete') return null;
  if (!canInTask(check.role, 'assess')) return null;
  return discussedSinceSubmission(check) ? null : DISCUSSION_REQUIRED;
}
