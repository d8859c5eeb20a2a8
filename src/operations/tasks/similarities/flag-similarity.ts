// Dismissing or raising a similarity's flag, by id or (the web client's older path) by position.
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { notFound } from '../../../lib/errors.ts';
import { findSimilarity, loadSimilarities, type SimilarityOut } from './load-similarities.ts';

/** Sets similarity `id` of the task flagged or not; answers it. */
export async function flagSimilarity(em: Em, taskId: number, id: number, flagged: boolean): Promise<SimilarityOut> {
  await findSimilarity(em, taskId, id);
  await db(em).updateTable('task_similarities').set({ flagged }).where('id', '=', id).execute();
  return (await findSimilarity(em, taskId, id)).out;
}

/** The `match`-th (from 0) of the task's similarities; 404 beyond the last. */
export async function similarityAt(em: Em, taskId: number, match: number) {
  const found = (await loadSimilarities(em, taskId))[match];
  if (!found) throw notFound('Unable to find requested Similarity');
  return found;
}

const withDismissed = (out: SimilarityOut) => ({ ...out, dismissed: !out.flagged });

/** The `match`-th similarity with `dismissed` (= not flagged). */
export async function similarityAtWithDismissed(em: Em, taskId: number, match: number) {
  return withDismissed((await similarityAt(em, taskId, match)).out);
}

/**
 * Dismisses (or raises) the `match`-th similarity's flag; with `other`, the other student's side of
 * the same match instead, once `mayChangeOther` (the caller's check on that task: it throws when
 * refused) has let it. Answers the changed similarity with `dismissed`.
 */
export async function dismissSimilarityAt(
  em: Em,
  taskId: number,
  input: { match: number; dismissed: boolean; other: boolean },
  mayChangeOther: (otherTaskId: number) => Promise<{ id: number }>,
) {
  let target = await similarityAt(em, taskId, input.match);
  if (input.other) {
    if (target.other_task_id === null) throw notFound('This similarity has no other side');
    const other = await mayChangeOther(target.other_task_id);
    const back = (await loadSimilarities(em, other.id)).find((s) => s.other_task_id === taskId && s.kind === target.kind);
    if (!back) throw notFound('This similarity has no other side');
    target = back;
  }
  await db(em).updateTable('task_similarities').set({ flagged: !input.dismissed }).where('id', '=', target.id).execute();
  const [after] = await loadSimilarities(em, target.task_id, target.id);
  return withDismissed(after.out);
}
