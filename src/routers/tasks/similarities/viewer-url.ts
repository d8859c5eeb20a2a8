import { similarityMutation } from '../../../trpc/scopes/index.ts';
import { badRequest, notFound } from '../../../trpc/errors.ts';
import { simcheckViewerUrl } from '../../../similarity/simcheck.ts';
import { findSimilarity } from './find.ts';
import { similarityInput, viewerUrlOut } from './schemas.ts';

// A GET in a transaction: asking the service for a viewer URL records an action.
export const similarityViewerUrl = similarityMutation(similarityInput, {
  action: 'view_plagiarism',
  refused: 'Not authorised to view the similarities of this task',
})
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
  .output(viewerUrlOut)
  .query(async ({ ctx, input }) => {
    const { task } = ctx;
    const similarity = await findSimilarity(ctx.em, task.id, input.id);
    if (similarity.kind === 'moss') throw notFound('Code similarities have no viewer; download their contents instead');
    const result = await simcheckViewerUrl(ctx.em, ctx, similarity.id, ctx.user);
    if (result.kind === 'not_ready') throw notFound('Similarity report is not yet ready to be viewed for this submission');
    if (result.kind === 'failed') throw badRequest(result.message);
    return { viewer_url: result.url };
  });
