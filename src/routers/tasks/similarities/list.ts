import { z } from 'zod';
import { listSimilarities as listOfTask } from '../../../operations/tasks/similarities/load-similarities.ts';
import { route } from '../../../trpc/route.ts';
import { similarityQuery } from '../../../trpc/scopes/index.ts';
import { similarityOut, taskSimilaritiesInput } from './schemas.ts';

export const listSimilarities = similarityQuery(taskSimilaritiesInput, {
  action: 'view_plagiarism',
  refused: 'Not authorised to view the similarities of this task',
})
  .meta(
    route('GET', '/api/tasks/{task_id}/similarities', 'Tasks and similarities', "A task's similarities", {
      description:
        "Code (`MossTaskSimilarity`) and document (`TiiTaskSimilarity`) similarities of the task. Staff of the task's unit. See docs/api/taskdefs.md.",
    }),
  )
  .output(z.array(similarityOut))
  .query(({ ctx }) => listOfTask(ctx.em, ctx.task.id));
