// POST .../request_scorm_extension: a request for more attempts at the task's online test, sent to
// the unit's main convenor (the student's tutor when the unit has none). A staff member's own
// request is granted at once, as the original does for tutors.
import type { Em } from '../../../../db/orm.ts';
import { badRequest } from '../../../../lib/errors.ts';
import { insertComments } from '../../../tasks/comments.ts';
import { mainConvenorOf, tutorFor } from '../../../tasks/people.ts';
import { ensureTask } from '../../../tasks/tasks.ts';
import { assessScormRequest } from '../assess_scorm_extension/assess-scorm-extension.ts';
import { serializeComment, type CommentOut } from '../comments/serialize-comments.ts';
import { NO_TEST } from '../test_attempts/start-attempt.ts';

export async function requestScormExtension(
  em: Em,
  on: { taskId: number | null; projectId: number; unitId: number; definition: { id: number; scormEnabled: boolean; scormAttemptLimit: number } },
  by: { userId: number; assesses: boolean },
  input: { comment: string },
  now: Date,
): Promise<CommentOut> {
  const { definition } = on;
  if (!definition.scormEnabled) throw badRequest(NO_TEST);
  if (definition.scormAttemptLimit === 0) throw badRequest('This task allows unlimited attempts to complete the test');
  const taskId = on.taskId ?? (await ensureTask(em, on.projectId, definition.id, now));
  const recipient = (await mainConvenorOf(em, on.unitId)) ?? (await tutorFor(em, on.projectId, definition.id));
  const [commentId] = await insertComments(em, [{ taskId, authorId: by.userId, recipientId: recipient, kind: 'scorm_extension', comment: input.comment }], now);
  if (by.assesses) await assessScormRequest(em, { id: commentId, taskId }, by.userId, true, now);
  return serializeComment(em, commentId, by.userId);
}
