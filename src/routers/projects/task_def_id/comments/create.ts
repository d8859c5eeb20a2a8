import { route } from '../../../../trpc/route.ts';
import { refId } from '../../../../db/refs.ts';
import { MAX_ATTACHMENT_BYTES } from '../../../../domain/comment-attachments.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { createComment as create } from '../../../../operations/projects/task_def_id/comments/create-comment.ts';
import { commentOut } from '../../../../operations/projects/task_def_id/comments/serialize-comments.ts';
import { createCommentInput } from './schemas.ts';

export const createComment = taskMutation(createCommentInput, {
  project: 'make_submission',
  refused: 'Not authorised to create a comment for this task',
  projectField: 'project_id',
})
  .meta(
    route(
      'POST',
      '/api/projects/{project_id}/task_def_id/{task_definition_id}/comments',
      'Projects, submissions, comments',
      'Comment on a task, with text or an attachment',
      {
        description: 'The student or staff of the unit; multipart (as the web client sends it) or JSON. See docs/api/projects.md.',
        rest: { upload: { maxBytes: MAX_ATTACHMENT_BYTES } },
      },
    ),
  )
  .output(commentOut)
  .mutation(({ ctx, input }) =>
    create(
      ctx.em,
      { storage: ctx.storage, now: ctx.clock.now() },
      { taskId: ctx.taskId, projectId: ctx.project.id, definitionId: ctx.definition.id, studentId: refId(ctx.project.user) },
      ctx.user.id,
      input,
    ),
  );
