import { dismissSimilarityAt } from '../../../operations/tasks/similarities/flag-similarity.ts';
import { route } from '../../../trpc/route.ts';
import { similarityMutation, similarityTask } from '../../../trpc/scopes/index.ts';
import { dismissMatchInput, legacyOut } from './schemas.ts';

const CHANGE = { action: 'delete_plagiarism', refused: 'Not authorised to change the similarities of this task' } as const;

export const legacyUpdateSimilarity = similarityMutation(dismissMatchInput, { ...CHANGE, field: 'id' })
  .meta(
    route('PUT', '/api/tasks/{id}/similarity/{match}', 'Tasks and similarities', "Dismiss or raise a similarity flag, by position (the client's older path)", {
      description:
        "`dismissed=true` clears the `match`-th similarity's flag, `false` raises it; `other=true` changes the other student's side. " +
        "Staff of the task's unit. See docs/api/taskdefs.md.",
    }),
  )
  .output(legacyOut)
  // With `other`, the caller must also be allowed to change the other student's task.
  .mutation(({ ctx, input }) => dismissSimilarityAt(ctx.em, ctx.task.id, input, (otherTaskId) => similarityTask(ctx.em, ctx.user, otherTaskId, CHANGE)));
