// Assessing a request for more test attempts (docs/online-tests.md, "Extra attempts"), shared by
// staff's answer and the grant of a staff member's own request. It is assessed once; a grant adds
// one more block of the definition's attempt limit to the task's extra attempts (as the original,
// so that the limit is scorm_attempt_limit + scorm_extensions). It reuses the extension columns of
// task_comments.
import { sql } from 'kysely';
import { db } from '../../../../db/kysely.ts';
import { couldBeRowId } from '../../../../db/lookup.ts';
import type { Em } from '../../../../db/orm.ts';
import { attemptsPerExtension } from '../../../../domain/test-attempts.ts';
import { forbidden, notFound } from '../../../../lib/errors.ts';
import { markRead } from '../../../tasks/comments.ts';
import { staffOf, tutorFor } from '../../../tasks/people.ts';
import { publishTaskEvent } from '../../../live/publish-task-event.ts';
import { serializeComment, type CommentOut } from '../comments/serialize-comments.ts';

const UNKNOWN_REQUEST = 'Unable to find requested Scorm extension comment';

/**
 * Records the assessment: the decision, the assessor and when; on a grant, the task's extra
 * attempts. Then the request is read by the student's tutor and every staff member (it stayed new
 * for the convenor it was sent to until now).
 */
export async function assessScormRequest(em: Em, request: { id: number; taskId: number }, assessorId: number, granted: boolean, now: Date): Promise<void> {
  await db(em)
    .updateTable('task_comments')
    .set({ extension_granted: granted, extension_assessed_at: now.toISOString(), extension_assessor_id: assessorId })
    .where('id', '=', request.id)
    .execute();
  const task = await sql<{ project_id: number; task_definition_id: number; unit_id: number; attempt_limit: number }>`
    select t.project_id, t.task_definition_id, d.unit_id, d.scorm_attempt_limit as attempt_limit
    from tasks t join task_definitions d on d.id = t.task_definition_id where t.id = ${request.taskId}`.execute(db(em));
  const { project_id, task_definition_id, unit_id, attempt_limit } = task.rows[0];
  if (granted) {
    await sql`update tasks set scorm_extensions = scorm_extensions + ${attemptsPerExtension(attempt_limit)}::int where id = ${request.taskId}`.execute(db(em));
    await publishTaskEvent(em, 'status', [request.taskId]);
  }
  const tutor = await tutorFor(em, project_id, task_definition_id);
  const readers = new Set([...(tutor === null ? [] : [tutor]), ...(await staffOf(em, unit_id))]);
  await markRead(
    em,
    [...readers].map((user_id) => ({ comment_id: request.id, user_id })),
    now,
  );
}

/** PUT .../assess_scorm_extension/{task_comment_id}: staff grant or refuse a request once (again: 403); answers the request. */
export async function assessScormExtension(
  em: Em,
  taskId: number | null,
  commentId: number,
  by: { userId: number; granted: boolean },
  now: Date,
): Promise<CommentOut> {
  if (taskId === null || !couldBeRowId(commentId)) throw notFound(UNKNOWN_REQUEST);
  // Locked, so that two assessors cannot both answer it.
  const request = await db(em)
    .selectFrom('task_comments')
    .select(['id', 'task_id', 'extension_assessed_at'])
    .where('id', '=', commentId)
    .where('task_id', '=', taskId)
    .where('kind', '=', 'scorm_extension')
    .forUpdate()
    .executeTakeFirst();
  if (!request) throw notFound(UNKNOWN_REQUEST);
  if (request.extension_assessed_at !== null) throw forbidden('Scorm extension has already been assessed');
  await assessScormRequest(em, { id: request.id, taskId }, by.userId, by.granted, now);
  return serializeComment(em, request.id, by.userId);
}
