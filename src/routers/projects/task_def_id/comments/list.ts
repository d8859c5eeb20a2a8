import { route } from '../../../../trpc/route.ts';
import { z } from 'zod';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { commentsOfTask, readComments } from '../../../../operations/tasks/comment-reading.ts';
import { listCommentsInput } from './schemas.ts';
import { commentOut, serializeComments } from '../../../../operations/projects/task_def_id/comments/serialize-comments.ts';

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
  .query(async ({ ctx }) => {
    if (ctx.taskId === null) return [];
    const comments = await commentsOfTask(ctx.em, ctx.taskId);
    const out = await serializeComments(
      ctx.em,
      comments.map((c) => c.id),
      ctx.user.id,
    );
    const unread = new Set(out.filter((c) => c.is_new).map((c) => c.id));
    await readComments(
      ctx.em,
      ctx.user.id,
      ctx.unit.id,
      comments.filter((c) => unread.has(c.id)),
      ctx.clock.now(),
    );
    return out;
  });
