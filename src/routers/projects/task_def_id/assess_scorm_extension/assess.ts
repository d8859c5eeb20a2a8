import { route } from '../../../../trpc/route.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { commentOut } from '../../../../operations/projects/task_def_id/comments/serialize-comments.ts';
import { assessScormExtension as assess } from '../../../../operations/projects/task_def_id/assess_scorm_extension/assess-scorm-extension.ts';
import { assessScormExtensionInput } from './schemas.ts';

export const assessScormExtension = taskMutation(assessScormExtensionInput, {
  task: 'assess_scorm_extension',
  refused: 'Not authorised to assess a scorm extension for this task',
  projectField: 'project_id',
})
  .meta(
    route(
      'PUT',
      '/api/projects/{project_id}/task_def_id/{task_definition_id}/assess_scorm_extension/{task_comment_id}',
      'Online tests',
      'Grant or refuse a request for more test attempts',
      {
        description: 'Staff of the unit, once per request (again: 403). `task_comment_id` is a scorm_extension comment of this task. See docs/online-tests.md.',
      },
    ),
  )
  .output(commentOut)
  .mutation(({ ctx, input }) => assess(ctx.em, ctx.taskId, input.task_comment_id, { userId: ctx.user.id, granted: input.granted }, ctx.clock.now()));
