// DELETE /api/submission/project/{id}/portfolio: one part of the portfolio, or the compiled portfolio.
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { storageKeys, type Storage } from '../../../../storage/index.ts';
import { badRequest, notFound } from '../../../../lib/errors.ts';
import { removePortfolioPart, type PartListed } from './portfolio-parts.ts';

/**
 * With `idx`, `kind` and `name`: removes that part (404 when there is none); with none of them:
 * the compiled portfolio. The stored file goes once the change is committed.
 */
export async function removePortfolio(
  em: Em,
  services: { storage: Storage; afterCommit: (fn: () => void) => void },
  projectId: number,
  part: Partial<PartListed>,
): Promise<true> {
  const { storage, afterCommit } = services;
  const given = [part.idx, part.kind, part.name].filter((v) => v !== undefined).length;
  if (given === 0) {
    await db(em).updateTable('projects').set({ portfolio_production_date: null }).where('id', '=', projectId).execute();
    const key = storageKeys.portfolio(projectId);
    afterCommit(() => void storage.delete(key).catch(() => undefined));
    return true;
  }
  if (part.idx === undefined || part.kind === undefined || part.name === undefined) {
    throw badRequest('idx, kind and name are needed together to remove a portfolio file');
  }
  const key = await removePortfolioPart(em, projectId, { idx: part.idx, kind: part.kind, name: part.name });
  if (key === null) throw notFound('Unable to find the portfolio file to remove');
  afterCommit(() => void storage.delete(key).catch(() => undefined));
  return true;
}
