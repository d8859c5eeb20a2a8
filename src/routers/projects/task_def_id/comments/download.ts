import { route } from '../../../../trpc/route.ts';
import { fileResult } from '../../../../lib/files.ts';
import { commentQuery } from '../../../../trpc/scopes/index.ts';
import { commentAttachment } from '../../../../operations/projects/task_def_id/comments/comment-attachment.ts';
import { commentAttachmentInput } from './schemas.ts';

export const downloadCommentAttachment = commentQuery(commentAttachmentInput, {
  project: 'get',
  refused: 'You cannot read the comments for this task',
  projectField: 'project_id',
})
  .meta(
    route('GET', '/api/projects/{project_id}/task_def_id/{task_definition_id}/comments/{id}', 'Projects, submissions, comments', "A comment's attachment", {
      description:
        'The student or staff of the unit. The image, PDF or recording as uploaded, with its type; ' +
        '`as_attachment=true` saves it as `comment-<id><ext>`. See docs/api/projects.md.',
      rest: { file: true },
    }),
  )
  .output(fileResult())
  .query(({ ctx, input }) => commentAttachment(ctx.storage, ctx.comment, input.as_attachment));
