// GET .../comments and .../comments/{id}/mark_as_unread: listing is how comments are read (there is
// no "mark read" call); marking one unread takes the reader's receipt away again.
import type { Em } from '../../../../db/orm.ts';
import { commentsOfTask, readComments, unreadComment } from '../../../tasks/comment-reading.ts';
import { serializeComment, serializeComments, type CommentOut } from './serialize-comments.ts';

/** The task's comments as the reader sees them (new ones flagged), which are then read. */
export async function listTaskComments(em: Em, taskId: number | null, reader: { userId: number; unitId: number }, now: Date): Promise<CommentOut[]> {
  if (taskId === null) return [];
  const comments = await commentsOfTask(em, taskId);
  const out = await serializeComments(
    em,
    comments.map((c) => c.id),
    reader.userId,
  );
  const unread = new Set(out.filter((c) => c.is_new).map((c) => c.id));
  await readComments(
    em,
    reader.userId,
    reader.unitId,
    comments.filter((c) => unread.has(c.id)),
    now,
  );
  return out;
}

/** The comment becomes unread for the reader; answers it as they now see it. */
export async function markCommentUnread(em: Em, readerId: number, commentId: number): Promise<CommentOut> {
  await unreadComment(em, readerId, commentId);
  return serializeComment(em, commentId, readerId);
}
