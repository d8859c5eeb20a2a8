import type { Em } from '../../../db/orm.ts';
import { notFound } from '../../../trpc/errors.ts';
import { loadSimilarities } from './serialize.ts';

/** One similarity of the task; 404 for an unknown id or another task's. */
export async function findSimilarity(em: Em, taskId: number, id: number) {
  const [found] = await loadSimilarities(em, taskId, id);
  if (!found) throw notFound('Unable to find requested Similarity');
  return found;
}
