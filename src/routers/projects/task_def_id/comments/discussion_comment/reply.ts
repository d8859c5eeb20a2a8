import { route } from '../../../../../trpc/route.ts';
import { z } from 'zod';
import { db } from '../../../../../db/kysely.ts';
import { MAX_ATTACHMENT_BYTES } from '../../../../../domain/comment-attachments.ts';
import { storageKeys } from '../../../../../storage/index.ts';
import { badRequest } from '../../../../../trpc/errors.ts';
import { findDiscussion, taskMutation } from '../../../../../trpc/scopes/index.ts';
import { markRead } from '../../../../../operations/tasks/comments.ts';
import { checkAudio } from '../../../../../operations/projects/task_def_id/comments/discussion_comment/audio-files.ts';
import { replyInput } from './schemas.ts';

export const discussionReply = taskMutation(replyInput, {
  task: 'make_discussion_reply',
  refused: 'Not authorised to reply to this discussion comment',
  projectField: 'project_id',
})
  .meta(
    route(
      'POST',
      '/api/projects/{project_id}/task_def_id/{task_definition_id}/comments/{task_comment_id}/discussion_comment/reply',
      'Projects, submissions, comments',
      'The student records their reply to a discussion',
      {
        description:
          'The student only. Multipart `attachment`: audio by its content (403 otherwise; 400 when empty or missing; 413 ' +
          'from 30,000,000 bytes), stored as uploaded, replacing any earlier reply. The discussion becomes complete (and ' +
          'read by the student). Answers 201 with no body.',
        rest: { upload: { maxBytes: MAX_ATTACHMENT_BYTES + 1_000_000 } },
      },
    ),
  )
  .output(z.null())
  .mutation(async ({ ctx, input }) => {
    if (!input.attachment) throw badRequest('attachment is missing');
    await checkAudio(input.attachment);
    const comment = await findDiscussion(ctx.em, ctx.taskId, input.task_comment_id);
    const now = ctx.clock.now();
    await db(ctx.em).updateTable('task_comments').set({ discussion_completed_at: now.toISOString() }).where('id', '=', comment.id).execute();
    await db(ctx.em)
      .updateTable('task_comments')
      .set({ discussion_started_at: now.toISOString() })
      .where('id', '=', comment.id)
      .where('discussion_started_at', 'is', null)
      .execute();
    await markRead(ctx.em, [{ comment_id: comment.id, user_id: ctx.user.id }], now);
    await ctx.storage.put(storageKeys.discussionReply(comment.id), { path: input.attachment.path });
    return null;
  });
