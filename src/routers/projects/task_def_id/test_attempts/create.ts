import { route } from '../../../../trpc/route.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { startAttempt } from '../../../../operations/projects/task_def_id/test_attempts/start-attempt.ts';
import { attemptsInput, testAttemptOut } from './schemas.ts';

export const createAttempt = taskMutation(attemptsInput, {
  task: 'make_scorm_attempt',
  refused: 'Not authorised to make a scorm attempt for this task',
  projectField: 'project_id',
})
  .meta(
    route('POST', '/api/projects/{project_id}/task_def_id/{task_definition_id}/test_attempts', 'Online tests', 'Start a test attempt', {
      description:
        "The task's student, while the definition's online test is enabled (else 403). 400 while the last attempt is open or " +
        'passed, or when the attempts allowed are used; 429 with Retry-After before the time delay has passed. See docs/online-tests.md.',
      rest: { errors: [429] },
    }),
  )
  .output(testAttemptOut)
  .mutation(({ ctx }) => startAttempt(ctx.em, { taskId: ctx.taskId, projectId: ctx.project.id, definition: ctx.definition }, ctx.clock.now()));
