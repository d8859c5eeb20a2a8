// Which comments a task shows, and what reading them records (beyond-spec.md §4.7).
import { sql } from 'kysely';
import type { CommentKind } from '../../../schema/enums.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { notFound } from '../../lib/errors.ts';
import { markRead } from './comments.ts';
import { staffOf, tutorFor } from './people.ts';

export interface ListedComment {
  id: number;
  kind: CommentKind;
  authorId: number;
  recipientId: number | null;
  comment: string | null;
  attachmentPath: string | null;
  attachmentContentType: string | null;
  extensionAssessed: boolean;
  /** The project of the task the comment was made on (group tasks: any member's). */
  projectId: number;
  taskDefinitionId: number;
  studentId: number;
}

/**
 * The comments of a task in creation order: a group task shows every comment of its group
 * submission's tasks, as the original's `all_comments`. One query.
 */
export async function commentsOfTask(em: Em, taskId: number): Promise<ListedComment[]> {
  const rows = await sql<{
    id: number;
    kind: CommentKind;
    author_id: number;
    recipient_id: number | null;
    comment: string | null;
    attachment_path: string | null;
    attachment_content_type: string | null;
    extension_assessed_at: string | null;
    project_id: number;
    task_definition_id: number;
    user_id: number;
  }>`
    select c.id, c.kind, c.author_id, c.recipient_id, c.comment, c.attachment_path, c.attachment_content_type,
           c.extension_assessed_at, t.project_id, t.task_definition_id, p.user_id
    from tasks me
    join tasks t on t.id = me.id or (me.group_submission_id is not null and t.group_submission_id = me.group_submission_id)
    join task_comments c on c.task_id = t.id
    join projects p on p.id = t.project_id
    where me.id = ${taskId}
    order by c.created_at, c.id`.execute(db(em));
  return rows.rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    authorId: r.author_id,
    recipientId: r.recipient_id,
    comment: r.comment,
    attachmentPath: r.attachment_path,
    attachmentContentType: r.attachment_content_type,
    extensionAssessed: r.extension_assessed_at !== null,
    projectId: r.project_id,
    taskDefinitionId: r.task_definition_id,
    studentId: r.user_id,
  }));
}

/** Requests that wait for an assessment: more time, or more test attempts. */
const REQUESTS = new Set<CommentKind>(['extension', 'scorm_extension']);

/**
 * Records that `readerId` has read these comments (those not read yet). Discussions are read only
 * by answering them; an extension request (or a request for more test attempts) stays new for the
 * staff member it was sent to until it is assessed. When the reader is the student's tutor for the task, the comment is read for every
 * staff member of the unit, so one tutor's reading clears everyone's inbox; anyone else reads for
 * themselves. At most one statement per distinct project among the comments, plus two.
 */
export async function readComments(em: Em, readerId: number, unitId: number, comments: ListedComment[], now: Date): Promise<void> {
  const readable = comments.filter(
    (c) => c.kind !== 'discussion' && !(REQUESTS.has(c.kind) && !c.extensionAssessed && c.recipientId === readerId && c.studentId !== readerId),
  );
  if (readable.length === 0) return;
  const tutors = new Map<string, number | null>();
  for (const c of readable) {
    const key = `${c.projectId}/${c.taskDefinitionId}`;
    if (!tutors.has(key)) tutors.set(key, await tutorFor(em, c.projectId, c.taskDefinitionId));
  }
  const forStaff = readable.filter((c) => tutors.get(`${c.projectId}/${c.taskDefinitionId}`) === readerId);
  const staff = forStaff.length > 0 ? await staffOf(em, unitId) : [];
  const receipts = readable.flatMap((c) =>
    forStaff.includes(c) ? [...new Set([readerId, ...staff])].map((user_id) => ({ comment_id: c.id, user_id })) : [{ comment_id: c.id, user_id: readerId }],
  );
  await markRead(em, receipts, now);
}

/** Mark unread: the reader's receipt goes, and nobody else's. */
export async function unreadComment(em: Em, readerId: number, commentId: number): Promise<void> {
  await db(em).deleteFrom('comment_read_receipts').where('comment_id', '=', commentId).where('user_id', '=', readerId).execute();
}

/** A comment of this task (or of its group submission); 404 for any other id, or when there is no task yet. */
export async function findTaskComment(em: Em, taskId: number | null, commentId: number): Promise<ListedComment> {
  const found = taskId === null ? undefined : (await commentsOfTask(em, taskId)).find((c) => c.id === commentId);
  if (!found) throw notFound('Unable to find requested Comment');
  return found;
}

/** A discussion comment of this task; 404 for any other comment. */
export async function findDiscussion(em: Em, taskId: number | null, commentId: number): Promise<ListedComment> {
  const comment = await findTaskComment(em, taskId, commentId);
  if (comment.kind !== 'discussion') throw notFound('Unable to find requested Discussion comment');
  return comment;
}
