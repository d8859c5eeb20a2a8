import { route } from '../../../../../trpc/route.ts';
import { z } from 'zod';
import { MAX_ATTACHMENT_BYTES } from '../../../../../domain/comment-attachments.ts';
import { taskMutation } from '../../../../../trpc/scopes/index.ts';
import { replyToDiscussion } from '../../../../../operations/projects/task_def_id/comments/discussion_comment/reply-to-discussion.ts';
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
  .mutation(({ ctx, input }) =>
    replyToDiscussion(
      ctx.em,
      { storage: ctx.storage, now: ctx.clock.now() },
      { taskId: ctx.taskId, commentId: input.task_comment_id, userId: ctx.user.id, attachment: input.attachment },
    ),
  );
