// The web client's older similarity API (web-client.md §4): `GET|PUT /api/tasks/{id}/similarity/{match}`,
// where `match` counts the task's similarities from 0 and `dismissed` is the inverse of `flagged`.
// Both answer the same Similarity as /similarities/{id}, with `dismissed` beside it.
import { z } from 'zod';
import { db } from '../../../db/kysely.ts';
import { similarityMutation, similarityQuery, similarityTask } from '../../../trpc/scopes/index.ts';
import { formBool, idField } from '../../../trpc/fields.ts';
import { notFound } from '../../../trpc/errors.ts';
import type { Em } from '../../../db/orm.ts';
import { similarityOut } from './schemas.ts';
import { loadSimilarities } from './serialize.ts';

const matchInput = z.object({
  id: idField().describe('The task'),
  match: z.coerce.number().int().min(0).describe("Which of the task's similarities, from 0 in the order they are listed"),
});
const legacyOut = similarityOut.extend({ dismissed: z.boolean().describe('not flagged') });

async function nthSimilarity(em: Em, taskId: number, match: number) {
  const found = (await loadSimilarities(em, taskId))[match];
  if (!found) throw notFound('Unable to find requested Similarity');
  return found;
}

const withDismissed = (out: z.infer<typeof similarityOut>) => ({ ...out, dismissed: !out.flagged });

export const legacyGetSimilarity = similarityQuery(matchInput, {
  action: 'view_plagiarism',
  refused: 'Not authorised to view the similarities of this task',
  field: 'id',
})
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/tasks/{id}/similarity/{match}',
      tags: ['Tasks and similarities'],
      summary: "One of a task's similarities, by position (the client's older path)",
      description:
        "Staff of the task's unit. The `match`-th (from 0) of GET /api/tasks/{task_id}/similarities, with `dismissed` (= not `flagged`). 404 beyond the last.",
    },
  })
  .output(legacyOut)
  .query(async ({ ctx, input }) => {
    const { task } = ctx;
    return withDismissed((await nthSimilarity(ctx.em, task.id, input.match)).out);
  });

export const legacyUpdateSimilarity = similarityMutation(matchInput.extend({ dismissed: formBool(), other: formBool().default(false) }), {
  action: 'delete_plagiarism',
  refused: 'Not authorised to change the similarities of this task',
  field: 'id',
})
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/tasks/{id}/similarity/{match}',
      tags: ['Tasks and similarities'],
      summary: "Dismiss or raise a similarity flag, by position (the client's older path)",
      description:
        "Staff of the task's unit. JSON `{dismissed, other}`: `dismissed=true` clears the `match`-th similarity's flag (as `flagged=false` on PUT /api/tasks/{task_id}/similarities/{id}), `false` raises it again. " +
        "`other=true` changes the other student's side of the same match instead (their task's similarity pointing back at this one), when the caller may change that task. Answers the changed Similarity with `dismissed`.",
    },
  })
  .output(legacyOut)
  .mutation(async ({ ctx, input }) => {
    const { task } = ctx;
    let target = await nthSimilarity(ctx.em, task.id, input.match);
    if (input.other) {
      if (target.other_task_id === null) throw notFound('This similarity has no other side');
      const other = await similarityTask(ctx.em, ctx.user, target.other_task_id, {
        action: 'delete_plagiarism',
        refused: 'Not authorised to change the similarities of this task',
      });
      const back = (await loadSimilarities(ctx.em, other.id)).find((s) => s.other_task_id === task.id && s.kind === target.kind);
      if (!back) throw notFound('This similarity has no other side');
      target = back;
    }
    await db(ctx.em).updateTable('task_similarities').set({ flagged: !input.dismissed }).where('id', '=', target.id).execute();
    const [after] = await loadSimilarities(ctx.em, target.task_id, target.id);
    return withDismissed(after.out);
  });
