// Enforced feedback (docs/marking/templates.md, as the original's unit setting of PR #602): in a
// unit that requires it, staff who move a task to one of FEEDBACK_REQUIRED must say why in the same
// request. Students are never asked (they cannot set these statuses), nor are automatic outcomes.
import type { TaskStatus } from '../../schema/enums.ts';
import { FEEDBACK_REQUIRED, STATUS_NAMES } from '../domain/task-status.ts';
import { canInTask, type TaskRole } from './scopes.ts';

export interface FeedbackCheck {
  /** The unit's `require_feedback_comment`. */
  unitRequires: boolean;
  role: TaskRole;
  from: TaskStatus;
  to: TaskStatus;
  /** The comment sent with the change (blank counts as none). */
  comment: string | undefined;
}

/**
 * Why this change needs a comment it lacks, or null. Leaving the status as it is needs none:
 * nothing changes that the student should hear about.
 */
export function missingFeedbackRefusal(check: FeedbackCheck): string | null {
  if (!check.unitRequires || !canInTask(check.role, 'assess')) return null;
  if (!FEEDBACK_REQUIRED.has(check.to) || check.from === check.to) return null;
  if ((check.comment ?? '').trim() !== '') return null;
  return `This unit requires a feedback comment with a change to ${STATUS_NAMES[check.to]}: send it as \`comment\` with the change.`;
}
