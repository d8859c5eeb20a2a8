import { z } from 'zod';
import { route } from '../../../../trpc/route.ts';
import { taskQuery } from '../../../../trpc/scopes/index.ts';
import { listAttempts as list } from '../../../../operations/projects/task_def_id/test_attempts/list-attempts.ts';
import { attemptsInput, testAttemptOut } from './schemas.ts';

export const listAttempts = taskQuery(attemptsInput, {
  task: 'get_submission',
  refused: 'Not authorized to get scorm attempts for task',
  projectField: 'project_id',
})
  .meta(
    route('GET', '/api/projects/{project_id}/task_def_id/{task_definition_id}/test_attempts', 'Online tests', "A task's test attempts, newest first", {
      description: 'The student or staff of the unit. See docs/online-tests.md.',
    }),
  )
  .output(z.array(testAttemptOut))
  .query(({ ctx }) => list(ctx.em, ctx.taskId));
