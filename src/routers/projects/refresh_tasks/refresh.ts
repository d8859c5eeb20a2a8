import { route } from '../../../trpc/route.ts';
import { taskQuery } from '../../../trpc/scopes/index.ts';
import { refreshTask as refresh } from '../../../operations/projects/refresh_tasks/refresh-task.ts';
import { refreshedTaskOut, refreshTaskInput } from './schemas.ts';

export const refreshTask = taskQuery(refreshTaskInput, {
  project: 'get',
  refused: 'You do not have permission to access this project',
  projectField: 'project_id',
})
  .meta(
    route(
      'GET',
      '/api/projects/{project_id}/refresh_tasks/{task_definition_id}',
      'Projects, submissions, comments',
      "A task's status, due date and extensions, for a quick refresh",
      {
        description:
          "The project's student or staff of its unit. Answers null when the student has no task for the definition yet " +
          '(tasks are created when first worked on); a definition of another unit is unknown (404).',
      },
    ),
  )
  .output(refreshedTaskOut.nullable())
  .query(({ ctx }) => refresh(ctx.em, ctx.taskId));
