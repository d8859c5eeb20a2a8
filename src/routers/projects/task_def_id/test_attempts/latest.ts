import { route } from '../../../../trpc/route.ts';
import { taskQuery } from '../../../../trpc/scopes/index.ts';
import { latestAttempt as latest } from '../../../../operations/projects/task_def_id/test_attempts/list-attempts.ts';
import { latestAttemptInput, testAttemptOut } from './schemas.ts';

export const latestAttempt = taskQuery(latestAttemptInput, {
  task: 'get_submission',
  refused: 'Not authorized to get latest scorm attempt for task',
  projectField: 'project_id',
})
  .meta(
    route('GET', '/api/projects/{project_id}/task_def_id/{task_definition_id}/test_attempts/latest', 'Online tests', "A task's newest test attempt", {
      description: 'The student or staff of the unit; with `completed=true`, the newest completed one. 404 when there is none. See docs/online-tests.md.',
    }),
  )
  .output(testAttemptOut)
  .query(({ ctx, input }) => latest(ctx.em, ctx.taskId, input.completed));
