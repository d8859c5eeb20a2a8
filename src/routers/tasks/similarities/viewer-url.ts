import { authedMutation } from '../../../trpc/core.ts';
import { badRequest, notFound } from '../../../trpc/errors.ts';
import { simcheckViewerUrl } from '../../../similarity/simcheck.ts';
import { findSimilarity } from './find.ts';
import { similarityInput, viewerUrlOut } from './schemas.ts';
import { similarityTask } from './scope.ts';

// A GET in a transaction: asking the service for a viewer URL records an action.
export const similarityViewerUrl = authedMutation
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/tasks/{task_id}/similarities/{id}/viewer_url',
      tags: ['Tasks and similarities'],
      summary: "The similarity-check service's viewer for a document similarity",
      description:
        "Staff of the task's unit. For a document similarity whose report is ready, a viewer URL the service makes for the caller: `{viewer_url}`. " +
        '404 "Similarity report is not yet ready to be viewed for this submission" before then; code similarities have no viewer (404: read their contents). ' +
        '400 when the service cannot be reached or refuses.',
    },
  })
  .input(similarityInput)
  .output(viewerUrlOut)
  .query(async ({ ctx, input }) => {
    const task = await similarityTask(ctx.em, ctx.user, input.task_id, 'view_plagiarism');
    const similarity = await findSimilarity(ctx.em, task.id, input.id);
    if (similarity.kind === 'moss') throw notFound('Code similarities have no viewer; download their contents instead');
    const result = await simcheckViewerUrl(ctx.em, ctx, similarity.id, ctx.user);
    if (result.kind === 'not_ready') throw notFound('Similarity report is not yet ready to be viewed for this submission');
    if (result.kind === 'failed') throw badRequest(result.message);
    return { viewer_url: result.url };
  });
