import { flagSimilarity } from '../../../operations/tasks/similarities/flag-similarity.ts';
import { route } from '../../../trpc/route.ts';
import { similarityMutation } from '../../../trpc/scopes/index.ts';
import { flagSimilarityInput, similarityOut } from './schemas.ts';

export const updateSimilarity = similarityMutation(flagSimilarityInput, {
  action: 'delete_plagiarism',
  refused: 'Not authorised to change the similarities of this task',
})
  .meta(
    route('PUT', '/api/tasks/{task_id}/similarities/{id}', 'Tasks and similarities', 'Dismiss or raise a similarity flag', {
      description:
        "Staff of the task's unit. `flagged=false` dismisses the flag (the task leaves the flagged lists once none of its similarities is flagged); " +
        '`true` raises it again. A dismissed code similarity stays dismissed when the check runs again on the same two submissions. Answers the Similarity.',
    }),
  )
  .output(similarityOut)
  .mutation(({ ctx, input }) => flagSimilarity(ctx.em, ctx.task.id, input.id, input.flagged));
