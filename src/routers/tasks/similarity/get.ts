// The web client's older similarity API (web-client.md §4): `GET|PUT /api/tasks/{id}/similarity/{match}`,
// where `match` counts the task's similarities from 0 and `dismissed` is the inverse of `flagged`.
// Both answer the same Similarity as /similarities/{id}, with `dismissed` beside it.
import { similarityAtWithDismissed } from '../../../operations/tasks/similarities/flag-similarity.ts';
import { route } from '../../../trpc/route.ts';
import { similarityQuery } from '../../../trpc/scopes/index.ts';
import { legacyOut, matchInput } from './schemas.ts';

export const legacyGetSimilarity = similarityQuery(matchInput, {
  action: 'view_plagiarism',
  refused: 'Not authorised to view the similarities of this task',
  field: 'id',
})
  .meta(
    route('GET', '/api/tasks/{id}/similarity/{match}', 'Tasks and similarities', "One of a task's similarities, by position (the client's older path)", {
      description:
        "Staff of the task's unit. The `match`-th (from 0) of GET /api/tasks/{task_id}/similarities, with `dismissed` (= not `flagged`). 404 beyond the last.",
    }),
  )
  .output(legacyOut)
  .query(({ ctx, input }) => similarityAtWithDismissed(ctx.em, ctx.task.id, input.match));
