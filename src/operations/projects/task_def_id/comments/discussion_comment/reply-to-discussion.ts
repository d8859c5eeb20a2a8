// POST .../comments/{task_comment_id}/discussion_comment/reply: the student's recorded reply completes the discussion.
import { db } from '../../../../../db/kysely.ts';
import type { Em } from '../../../../../db/orm.ts';
import { storageKeys, type Storage } from '../../../../../storage/index.ts';
import { badRequest } from '../../../../../lib/errors.ts';
import type { UploadedFile } from '../../../../../lib/files.ts';
import { findDiscussion } from '../../../../tasks/comment-reading.ts';
import { markRead } from '../../../../tasks/comments.ts';
import { checkAudio } from './audio-files.ts';

/** Stores the reply (replacing an earlier one); the discussion becomes complete, started, and read by `userId` (the student). */
export async function replyToDiscussion(
  em: Em,
  services: { storage: Storage; now: Date },
  reply: { taskId: number | null; commentId: number; userId: number; attachment: UploadedFile | undefined },
): Promise<null> {
  if (!reply.attachment) throw badRequest('attachment is missing');
  await checkAudio(reply.attachment);
  const comment = await findDiscussion(em, reply.taskId, reply.commentId);
  const now = services.now;
  await db(em).updateTable('task_comments').set({ discussion_completed_at: now.toISOString() }).where('id', '=', comment.id).execute();
  await db(em)
    .updateTable('task_comments')
    .set({ discussion_started_at: now.toISOString() })
    .where('id', '=', comment.id)
    .where('discussion_started_at', 'is', null)
    .execute();
  await markRead(em, [{ comment_id: comment.id, user_id: reply.userId }], now);
  await services.storage.put(storageKeys.discussionReply(comment.id), { path: reply.attachment.path });
  return null;
}
