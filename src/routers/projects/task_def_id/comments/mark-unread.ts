import { route } from '../../../../trpc/route.ts';
import { commentMutation } from '../../../../trpc/scopes/index.ts';
import { markCommentUnread as markUnread } from '../../../../operations/projects/task_def_id/comments/read-comments.ts';
import { commentOut } from '../../../../operations/projects/task_def_id/comments/serialize-comments.ts';
import { commentInput } from './schemas.ts';

export const markCommentUnread = commentMutation(commentInput, {
  project: 'make_submission',
  refused: 'Not authorised to mark comment as unread',
  projectField: 'project_id',
})
  .meta(
    route(
      'POST',
      '/api/projects/{project_id}/task_def_id/{task_definition_id}/comments/{id}',
      'Projects, submissions, comments',
      'Mark a comment unread for the caller',
      {
        description:
          "The student or staff of the unit. The caller's read receipt goes (nobody else's), so the comment is new for " +
          'them again and counts in their inbox. Answers the comment as the caller now sees it (`is_new` true), as the ' +
          'original does.',
      },
    ),
  )
  .output(commentOut)
  .mutation(({ ctx }) => markUnread(ctx.em, ctx.user.id, ctx.comment.id));
