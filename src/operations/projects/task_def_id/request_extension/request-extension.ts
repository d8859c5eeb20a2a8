// POST .../request_extension: a request for more time, sent to the tutor (or the main convenor when
// it asks for more than can be granted); staff's own requests, and requests in units that apply
// them automatically before the deadline, are granted at once.
import type { Em } from '../../../../db/orm.ts';
import { clampExtensionRequest } from '../../../../domain/task-rules.ts';
import { forbidden } from '../../../../lib/errors.ts';
import { insertComments } from '../../../tasks/comments.ts';
import { mainConvenorOf, tutorFor } from '../../../tasks/people.ts';
import { ensureTask, loadTasks } from '../../../tasks/tasks.ts';
import { assessExtensionRequest } from '../assess_extension/assess-extension-request.ts';
import type { CommentedTask } from '../comments/create-comment.ts';
import { serializeComment, type CommentOut } from '../comments/serialize-comments.ts';

export interface ExtensionRequester {
  userId: number;
  /** May the requester assess extensions (staff)? Then the request is granted at once. */
  assesses: boolean;
}

export async function requestExtension(
  em: Em,
  on: CommentedTask & { unit: { id: number; autoApplyExtensionBeforeDeadline: boolean } },
  by: ExtensionRequester,
  input: { comment: string; weeks_requested: number },
  now: Date,
): Promise<CommentOut> {
  const taskId = on.taskId ?? (await ensureTask(em, on.projectId, on.definitionId, now));
  // Locked, so the weeks left cannot change before this request is answered.
  const [task] = await loadTasks(em, [taskId], true);
  const request = clampExtensionRequest(input.weeks_requested, task.terms, task.state.extensions);
  if (!request.ok) throw forbidden(request.error);

  const mainConvenor = await mainConvenorOf(em, on.unit.id);
  const tutor = await tutorFor(em, task.projectId, task.taskDefinitionId);
  const recipient = input.weeks_requested > request.weeks ? (mainConvenor ?? tutor) : tutor;
  const [commentId] = await insertComments(
    em,
    [{ taskId, authorId: by.userId, recipientId: recipient, kind: 'extension', comment: input.comment, extensionWeeksRequested: request.weeks }],
    now,
  );

  // Staff, who may assess extensions, grant their own request at once.
  if (by.assesses || on.unit.autoApplyExtensionBeforeDeadline) {
    const assessor = by.assesses ? by.userId : (mainConvenor ?? tutor ?? by.userId);
    await assessExtensionRequest(em, { id: commentId, taskId, weeks: request.weeks, assessed: false }, assessor, true, true, now);
  }
  return serializeComment(em, commentId, by.userId);
}
