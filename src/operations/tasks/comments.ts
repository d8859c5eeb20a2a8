// Writing comments and read receipts. Every kind of comment (text, attachments, status changes,
// extension requests) is inserted here, so the receipt rules of beyond-spec.md §4.7 hold for all.
import { sql } from 'kysely';
import type { CommentKind, TaskStatus } from '../../../schema/enums.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { STATUS_NAMES } from '../../domain/task-status.ts';
import { publishTaskEvent } from '../live/publish-task-event.ts';

export interface NewComment {
  taskId: number;
  authorId: number;
  recipientId: number | null;
  kind: CommentKind;
  comment: string | null;
  replyToId?: number | null;
  taskStatus?: TaskStatus | null;
  extensionWeeksRequested?: number | null;
  attachmentPath?: string | null;
  attachmentContentType?: string | null;
  /** A `scorm` comment's attempt (the comment goes with it). */
  testAttemptId?: number | null;
  /** Also read by these users from the start (beyond the author). */
  readBy?: number[];
}

/**
 * Inserts the comments and their receipts in two statements, whatever their number. The author
 * has read their own comment; a status comment is also read by its recipient, so it never counts
 * as new. Returns the new ids in order.
 */
export async function insertComments(em: Em, comments: NewComment[], now: Date): Promise<number[]> {
  if (comments.length === 0) return [];
  const k = db(em);
  const rows = await k
    .insertInto('task_comments')
    .values(
      comments.map((c) => ({
        task_id: c.taskId,
        author_id: c.authorId,
        recipient_id: c.recipientId,
        kind: c.kind,
        comment: c.comment,
        reply_to_id: c.replyToId ?? null,
        task_status: c.taskStatus ?? null,
        extension_weeks_requested: c.extensionWeeksRequested ?? null,
        attachment_path: c.attachmentPath ?? null,
        attachment_content_type: c.attachmentContentType ?? null,
        test_attempt_id: c.testAttemptId ?? null,
        created_at: now.toISOString(),
      })),
    )
    .returning('id')
    .execute();
  const ids = rows.map((r) => r.id);
  const receipts: { comment_id: number; user_id: number }[] = [];
  comments.forEach((c, i) => {
    const readers = new Set([c.authorId, ...(c.readBy ?? [])]);
    if (c.kind === 'status' && c.recipientId !== null) readers.add(c.recipientId);
    for (const user of readers) receipts.push({ comment_id: ids[i], user_id: user });
  });
  await markRead(em, receipts, now);
  // Status comments come with a task change, which changeTask announces itself.
  const assessed = comments.filter((c) => c.kind === 'assessment').map((c) => c.taskId);
  const commented = comments.filter((c) => c.kind !== 'assessment' && c.kind !== 'status').map((c) => c.taskId);
  await publishTaskEvent(em, 'assessment', assessed);
  await publishTaskEvent(em, 'comment', commented);
  return ids;
}

/** Writes receipts (comment, reader) that do not exist yet, in one statement. */
export async function markRead(em: Em, receipts: { comment_id: number; user_id: number }[], now: Date): Promise<void> {
  if (receipts.length === 0) return;
  const values = sql.join(receipts.map((r) => sql`(${r.comment_id}::int, ${r.user_id}::int)`));
  await sql`insert into comment_read_receipts (comment_id, user_id, created_at)
    select v.c, v.u, ${now.toISOString()}::timestamptz from (values ${values}) as v(c, u)
    on conflict (comment_id, user_id) do nothing`.execute(db(em));
}

/** A status comment's text is the status's name, as the original shows it. */
export const statusCommentText = (status: TaskStatus): string => STATUS_NAMES[status];
