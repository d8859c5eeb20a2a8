import { similarityViewerUrl as viewerUrlOf } from '../../../operations/tasks/similarities/viewer-url.ts';
import { route } from '../../../trpc/route.ts';
import { similarityMutation } from '../../../trpc/scopes/index.ts';
import { similarityInput, viewerUrlOut } from './schemas.ts';

// A GET in a transaction: asking the service for a viewer URL records an action.
export const similarityViewerUrl = similarityMutation(similarityInput, {
  action: 'view_plagiarism',
  refused: 'Not authorised to view the similarities of this task',
})
  .meta(
    route(
      'GET',
      '/api/tasks/{task_id}/similarities/{id}/viewer_url',
      'Tasks and similarities',
      "The similarity-check service's viewer for a document similarity",
      {
        description:
          'For a document similarity whose report is ready, `{viewer_url}` made by the similarity-check service for the caller. Staff ' +
          "of the task's unit. See docs/api/taskdefs.md.",
      },
    ),
  )
  .output(viewerUrlOut)
  .query(({ ctx, input }) => viewerUrlOf(ctx.em, ctx, ctx.task.id, input.id, ctx.user));
