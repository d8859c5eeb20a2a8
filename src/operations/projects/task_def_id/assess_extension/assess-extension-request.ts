// Assessing an extension request (beyond-spec.md §4.5), shared by the staff's answer and the
// automatic grant when the request is made. The grant itself goes through changeTask, which
// applies the extension rules (clamped to the deadline, a covered time-exceeded task is ready
// for feedback again).
import { sql } from 'kysely';
import { db } from '../../../../db/kysely.ts';
import { couldBeRowId } from '../../../../db/lookup.ts';
import type { Em } from '../../../../db/orm.ts';
import { extensionDecision, extensionResponse } from '../../../../domain/extension-responses.ts';
import { canExtend, dueDay } from '../../../../domain/task-rules.ts';
import { changeTask } from '../../../tasks/change-task.ts';
import { markRead } from '../../../tasks/comments.ts';
import { staffOf, tutorFor } from '../../../tasks/people.ts';
import { loadTasks } from '../../../tasks/tasks.ts';
import { ROLE } from '../../../../policy/index.ts';
import { forbidden, notFound } from '../../../../lib/errors.ts';
import { serializeComment, type CommentOut } from '../comments/serialize-comments.ts';

export interface ExtensionRequestRow {
  id: number;
  taskId: number;
  weeks: number;
  assessed: boolean;
}

/**
 * The extension request `commentId` among the comments of task `taskId` (a group task's include
 * its group's), locked so two assessors cannot both answer it; undefined when there is none.
 */
export async function findExtensionRequest(em: Em, taskId: number, commentId: number): Promise<ExtensionRequestRow | undefined> {
  const rows = await sql<{ id: number; task_id: number; extension_weeks_requested: number | null; extension_assessed_at: string | null }>`
    select c.id, c.task_id, c.extension_weeks_requested, c.extension_assessed_at
    from task_comments c
    join tasks t on t.id = c.task_id
    join tasks me on me.id = ${taskId}
    where c.id = ${commentId} and c.kind = 'extension'
      and (t.id = me.id or (me.group_submission_id is not null and t.group_submission_id = me.group_submission_id))
    for update of c`.execute(db(em));
  const r = rows.rows[0];
  if (!r) return undefined;
  return { id: r.id, taskId: r.task_id, weeks: r.extension_weeks_requested ?? 0, assessed: r.extension_assessed_at !== null };
}

/**
 * Records the assessment of an unassessed request: grants its weeks while the task can still be
 * extended, writes the response sentence, and marks the request read for the student's tutor and
 * so for every staff member (the tutor could not read it while it was open).
 */
export async function assessExtensionRequest(
  em: Em,
  request: ExtensionRequestRow,
  assessorId: number,
  granted: boolean,
  automatic: boolean,
  now: Date,
): Promise<void> {
  const [task] = await loadTasks(em, [request.taskId], true);
  const decision = extensionDecision(granted, canExtend(task.terms, task.state.extensions));
  let extensions = task.state.extensions;
  if (decision === 'granted') {
    const result = await changeTask(em, task.id, { actor: { userId: assessorId, role: ROLE.tutor }, change: { kind: 'extend', weeks: request.weeks } }, now);
    extensions += result.extensionGranted;
  }
  await db(em)
    .updateTable('task_comments')
    .set({
      extension_granted: decision === 'granted',
      extension_assessed_at: now.toISOString(),
      extension_assessor_id: assessorId,
      extension_response: extensionResponse(decision, dueDay(task.terms, extensions), automatic),
    })
    .where('id', '=', request.id)
    .execute();
  const tutor = await tutorFor(em, task.projectId, task.taskDefinitionId);
  const readers = new Set([...(tutor === null ? [] : [tutor]), ...(await staffOf(em, task.unitId))]);
  await markRead(
    em,
    [...readers].map((user_id) => ({ comment_id: request.id, user_id })),
    now,
  );
}

const UNKNOWN_REQUEST = 'Unable to find requested Extension comment';

/** PUT .../assess_extension/{task_comment_id}: staff grant or refuse an open request; answers the request. */
export async function assessExtension(
  em: Em,
  taskId: number | null,
  commentId: number,
  by: { userId: number; granted: boolean },
  now: Date,
): Promise<CommentOut> {
  if (taskId === null || !couldBeRowId(commentId)) throw notFound(UNKNOWN_REQUEST);
  const request = await findExtensionRequest(em, taskId, commentId);
  if (!request) throw notFound(UNKNOWN_REQUEST);
  if (request.assessed) throw forbidden('Extension has already been assessed');
  await assessExtensionRequest(em, request, by.userId, by.granted, false, now);
  return serializeComment(em, request.id, by.userId);
}
