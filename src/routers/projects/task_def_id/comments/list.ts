import { route } from '../../../../trpc/route.ts';
import { z } from 'zod';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { listTaskComments } from '../../../../operations/projects/task_def_id/comments/read-comments.ts';
import { commentOut } from '../../../../operations/projects/task_def_id/comments/serialize-comments.ts';
import { listCommentsInput } from './schemas.ts';

// A GET that writes: listing is how comments are read (there is no "mark read" call), so it runs
// in a transaction like any change.
export const listComments = taskMutation(listCommentsInput, {
  project: 'get',
  refused: 'You cannot read the comments for this task',
  projectField: 'project_id',
})
  .meta(
    route(
      'GET',
      '/api/projects/{project_id}/task_def_id/{task_definition_id}/comments',
      'Projects, submissions, comments',
      "A task's comments, which the caller has then read",
      {
        description: 'The student or staff of the unit. See docs/api/projects.md.',
      },
    ),
  )
  .output(z.array(commentOut))
  .query(({ ctx }) => listTaskComments(ctx.em, ctx.taskId, { userId: ctx.user.id, unitId: ctx.unit.id }, ctx.clock.now()));
