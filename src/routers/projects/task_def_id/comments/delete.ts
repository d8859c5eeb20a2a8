import { route } from '../../../../trpc/route.ts';
import { z } from 'zod';
import { commentMutation } from '../../../../trpc/scopes/index.ts';
import { deleteComment as remove } from '../../../../operations/projects/task_def_id/comments/delete-comment.ts';
import { commentInput } from './schemas.ts';

export const deleteComment = commentMutation(commentInput, {
  project: 'get',
  refused: 'You cannot read the comments for this task',
  projectField: 'project_id',
  byAuthor: { own: 'delete_own_comment', other: 'delete_other_comment', refused: 'Not authorised to delete this comment' },
})
  .meta(
    route('DELETE', '/api/projects/{project_id}/task_def_id/{task_definition_id}/comments/{id}', 'Projects, submissions, comments', 'Delete a comment', {
      description:
        "The author (student or staff) deletes their own comment; staff of the unit may delete anyone's. Otherwise 403 " +
        '"Not authorised to delete this comment". An attachment\'s file goes once the deletion is committed. No body ' +
        '(204).',
      rest: { status: 204 },
    }),
  )
  .output(z.literal(true))
  .mutation(({ ctx }) => remove(ctx.em, { storage: ctx.storage, afterCommit: ctx.afterCommit }, ctx.comment));
