import { route } from '../../../../trpc/route.ts';
import { canInTask } from '../../../../policy/index.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { requestScormExtension as request } from '../../../../operations/projects/task_def_id/request_scorm_extension/request-scorm-extension.ts';
import { commentOut } from '../../../../operations/projects/task_def_id/comments/serialize-comments.ts';
import { requestScormExtensionInput } from './schemas.ts';

export const requestScormExtension = taskMutation(requestScormExtensionInput, {
  task: 'request_scorm_extension',
  refused: 'Not authorised to request a scorm extension for this task',
  projectField: 'project_id',
})
  .meta(
    route('POST', '/api/projects/{project_id}/task_def_id/{task_definition_id}/request_scorm_extension', 'Online tests', 'Ask for more test attempts', {
      description:
        "The student or staff of the unit; a staff member's own request is granted at once. 400 when the test is off or " +
        'allows unlimited attempts. See docs/online-tests.md.',
    }),
  )
  .output(commentOut)
  .mutation(({ ctx, input }) =>
    request(
      ctx.em,
      { taskId: ctx.taskId, projectId: ctx.project.id, unitId: ctx.unit.id, definition: ctx.definition },
      { userId: ctx.user.id, assesses: canInTask(ctx.projectRole, 'assess_scorm_extension') },
      input,
      ctx.clock.now(),
    ),
  );
