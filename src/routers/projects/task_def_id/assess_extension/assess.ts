import { route } from '../../../../trpc/route.ts';
import { forbidden, notFound } from '../../../../trpc/errors.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { commentOut, serializeComment } from '../../../../operations/projects/task_def_id/comments/serialize-comments.ts';
import { assessExtensionRequest, findExtensionRequest } from '../../../../operations/projects/task_def_id/assess_extension/assess-extension-request.ts';
import { assessExtensionInput } from './schemas.ts';

const UNKNOWN_REQUEST = 'Unable to find requested Extension comment';

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
  .mutation(async ({ ctx, input }) => {
    if (ctx.taskId === null) throw notFound(UNKNOWN_REQUEST);
    const request = await findExtensionRequest(ctx.em, ctx.taskId, input.task_comment_id);
    if (!request) throw notFound(UNKNOWN_REQUEST);
    if (request.assessed) throw forbidden('Extension has already been assessed');
    await assessExtensionRequest(ctx.em, request, ctx.user.id, input.granted, false, ctx.clock.now());
    return serializeComment(ctx.em, request.id, ctx.user.id);
  });
