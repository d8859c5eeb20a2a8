// GET /api/test_attempts/{id}/review: the attempt with its data model in review mode (cmi.mode
// "review"), for the player to show it without recording anything. Staff review any attempt; the
// student only an ended, completed one, and only where the definition allows review. Nothing is
// written: the stored model keeps "normal".
import type { Em } from '../../db/orm.ts';
import { canInTask, type ProjectRole } from '../../policy/index.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { attemptOut, findAttempt, type TestAttemptOut } from '../projects/task_def_id/test_attempts/attempt-out.ts';

export async function reviewAttempt(em: Em, attemptId: number, by: { role: ProjectRole }, definition: { scormAllowReview: boolean }): Promise<TestAttemptOut> {
  const attempt = await findAttempt(em, attemptId, false);
  if (!attempt) throw notFound('Unable to find requested Test attempt');
  if (!canInTask(by.role, 'review_other_attempt')) {
    if (!definition.scormAllowReview) throw forbidden('Not authorised to review this scorm attempt: this task does not allow students to review attempts.');
    if (!attempt.terminated || !attempt.completion_status) throw forbidden('Cannot review incomplete attempts!');
  }
  return attemptOut(attempt, { ...attempt.cmi_datamodel, 'cmi.mode': 'review' });
}
