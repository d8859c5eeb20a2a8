import { route } from '../../../../trpc/route.ts';
import { ATTACHMENT_KINDS } from '../../../../operations/projects/task_def_id/comments/serialize-comments.ts';
import { fileResult, type FileResult } from '../../../../trpc/files.ts';
import { notFound } from '../../../../trpc/errors.ts';
import { commentQuery } from '../../../../trpc/scopes/index.ts';
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
  .query(async ({ ctx, input }): Promise<FileResult> => {
    const { comment } = ctx;
    if (!ATTACHMENT_KINDS.has(comment.kind) || !comment.attachmentPath) throw notFound('No attachment for this comment.');
    const file = await ctx.storage.open(comment.attachmentPath);
    if (!file) throw notFound('File missing');
    const ext = /(\.[a-z0-9]+)$/.exec(comment.attachmentPath)?.[1] ?? '';
    return {
      filename: `comment-${comment.id}${ext}`,
      contentType: comment.attachmentContentType ?? 'application/octet-stream',
      data: file.stream,
      size: file.size,
      asAttachment: input.as_attachment,
      ranges: true,
    };
  });
