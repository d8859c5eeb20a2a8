import { route } from '../../../../trpc/route.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { commentOut } from '../../../../operations/projects/task_def_id/comments/serialize-comments.ts';
import { assessExtension as assess } from '../../../../operations/projects/task_def_id/assess_extension/assess-extension-request.ts';
import { assessExtensionInput } from './schemas.ts';

export const assessExtension = taskMutation(assessExtensionInput, {
  task: 'assess_extension',
  refused: 'Not authorised to assess an extension for this task',
  projectField: 'project_id',
})
  .meta(
    route(
      'PUT',
      '/api/projects/{project_id}/task_def_id/{task_definition_id}/assess_extension/{task_comment_id}',
      'Projects, submissions, comments',
      'Grant or reject an extension request',
      {
        description: "Staff of the unit. `task_comment_id` is an extension request of this task (or of its group's tasks). See " + 'docs/api/projects.md.',
      },
    ),
  )
  .output(commentOut)
  .mutation(({ ctx, input }) => assess(ctx.em, ctx.taskId, input.task_comment_id, { userId: ctx.user.id, granted: input.granted }, ctx.clock.now()));
