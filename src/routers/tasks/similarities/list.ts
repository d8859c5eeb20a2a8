import { z } from 'zod';
import { similarityQuery } from '../../../trpc/scopes/index.ts';
import { similarityOut, taskSimilaritiesInput } from './schemas.ts';
import { loadSimilarities } from './serialize.ts';

export const listSimilarities = similarityQuery(taskSimilaritiesInput, {
  action: 'view_plagiarism',
  refused: 'Not authorised to view the similarities of this task',
})
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/tasks/{task_id}/similarities',
      tags: ['Tasks and similarities'],
      summary: "A task's similarities",
      description:
        "Staff of the task's unit (students and other units' staff 403). Code similarities (`MossTaskSimilarity`) are computed by the service after the target date: " +
        "`pct` is the share of this task's code found in the other's, part 0 this task's code and part 1 the matching work. Document similarities " +
        "(`TiiTaskSimilarity`) come from the similarity-check service. Each carries the spec's `similarity_details` and the web client's top-level `type`, `pct`, `parts`.",
    },
  })
  .output(z.array(similarityOut))
  .query(async ({ ctx }) => {
    return (await loadSimilarities(ctx.em, ctx.task.id)).map((s) => s.out);
  });
