import type { Em } from '../../../db/orm.ts';
import { simcheckViewerUrl, type SimcheckServices } from '../../similarity/simcheck.ts';
import { badRequest, notFound } from '../../../lib/errors.ts';
import { findSimilarity } from './load-similarities.ts';

/** A viewer URL the similarity-check service makes for `viewer`, for a document similarity whose report is ready. */
export async function similarityViewerUrl(
  em: Em,
  services: SimcheckServices,
  taskId: number,
  id: number,
  viewer: { id: number; username: string },
): Promise<{ viewer_url: string }> {
  const similarity = await findSimilarity(em, taskId, id);
  if (similarity.kind === 'moss') throw notFound('Code similarities have no viewer; download their contents instead');
  const result = await simcheckViewerUrl(em, services, similarity.id, viewer);
  if (result.kind === 'not_ready') throw notFound('Similarity report is not yet ready to be viewed for this submission');
  if (result.kind === 'failed') throw badRequest(result.message);
  return { viewer_url: result.url };
}
