import { route } from '../../../../trpc/route.ts';
import { refId } from '../../../../db/refs.ts';
import { MAX_ATTACHMENT_BYTES } from '../../../../domain/comment-attachments.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { startDiscussion } from '../../../../operations/projects/task_def_id/discussion_comments/start-discussion.ts';
import { commentOut } from '../../../../operations/projects/task_def_id/comments/serialize-comments.ts';
import { createDiscussionInput } from './schemas.ts';

/** Ten prompts of 30 MB and their framing. */
const UPLOAD_BYTES = 10 * MAX_ATTACHMENT_BYTES + 1_000_000;

export const createDiscussion = taskMutation(createDiscussionInput, {
  task: 'create_discussion',
  refused: 'Not authorised to create a discussion comment',
  projectField: 'project_id',
})
  .meta(
    route(
      'POST',
      '/api/projects/{project_id}/task_def_id/{task_definition_id}/discussion_comments',
      'Projects, submissions, comments',
      'Start an audio discussion with the student',
      {
        description:
          'Staff of the unit. Multipart `attachments[]` (or repeated `attachments`): one or more audio prompts, each ' +
          'judged audio by its content (403 "Please upload only audio files"), non-empty (400) and under 30,000,000 ' +
          'bytes (413). See docs/api/projects.md.',
        rest: { upload: { maxBytes: UPLOAD_BYTES } },
      },
    ),
  )
  .output(commentOut)
  .mutation(({ ctx, input }) =>
    startDiscussion(
      ctx.em,
      { storage: ctx.storage, now: ctx.clock.now() },
      { taskId: ctx.taskId, projectId: ctx.project.id, definitionId: ctx.definition.id, studentId: refId(ctx.project.user) },
      ctx.user.id,
      input.attachments,
    ),
  );
