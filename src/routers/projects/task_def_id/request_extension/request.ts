import { route } from '../../../../trpc/route.ts';
import { refId } from '../../../../db/refs.ts';
import { canInTask } from '../../../../policy/index.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { requestExtension as request } from '../../../../operations/projects/task_def_id/request_extension/request-extension.ts';
import { commentOut } from '../../../../operations/projects/task_def_id/comments/serialize-comments.ts';
import { requestExtensionInput } from './schemas.ts';

export const requestExtension = taskMutation(requestExtensionInput, {
  task: 'request_extension',
  refused: 'Not authorised to request an extension for this task',
  projectField: 'project_id',
})
  .meta(
    route(
      'POST',
      '/api/projects/{project_id}/task_def_id/{task_definition_id}/request_extension',
      'Projects, submissions, comments',
      'Ask for more time on a task',
      {
        description: 'Staff of the unit, or the student when the unit allows student extension requests. See docs/api/projects.md.',
      },
    ),
  )
  .output(commentOut)
  .mutation(({ ctx, input }) =>
    request(
      ctx.em,
      { taskId: ctx.taskId, projectId: ctx.project.id, definitionId: ctx.definition.id, studentId: refId(ctx.project.user), unit: ctx.unit },
      { userId: ctx.user.id, assesses: canInTask(ctx.projectRole, 'assess_extension', ctx.unit) },
      input,
      ctx.clock.now(),
    ),
  );
