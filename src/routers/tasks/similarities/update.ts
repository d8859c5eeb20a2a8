import { db } from '../../../db/kysely.ts';
import { similarityMutation } from '../../../trpc/scopes/index.ts';
import { findSimilarity } from './find.ts';
import { flagSimilarityInput, similarityOut } from './schemas.ts';

export const updateSimilarity = similarityMutation(flagSimilarityInput, {
  action: 'delete_plagiarism',
  refused: 'Not authorised to change the similarities of this task',
})
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/tasks/{task_id}/similarities/{id}',
      tags: ['Tasks and similarities'],
      summary: 'Dismiss or raise a similarity flag',
      description:
        "Staff of the task's unit. `flagged=false` dismisses the flag (the task leaves the flagged lists once none of its similarities is flagged); " +
        '`true` raises it again. A dismissed code similarity stays dismissed when the check runs again on the same two submissions. Answers the Similarity.',
    },
  })
  .output(similarityOut)
  .mutation(async ({ ctx, input }) => {
    const { task } = ctx;
    await findSimilarity(ctx.em, task.id, input.id);
    await db(ctx.em).updateTable('task_similarities').set({ flagged: input.flagged }).where('id', '=', input.id).execute();
    return (await findSimilarity(ctx.em, task.id, input.id)).out;
  });
