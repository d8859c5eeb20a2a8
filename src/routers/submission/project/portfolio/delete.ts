import { route } from '../../../../trpc/route.ts';
import { z } from 'zod';
import { db } from '../../../../db/kysely.ts';
import { storageKeys } from '../../../../storage/index.ts';
import { badRequest, notFound } from '../../../../trpc/errors.ts';
import { projectMutation } from '../../../../trpc/scopes/index.ts';
import { removePortfolioPart } from '../../../../operations/submission/project/portfolio/portfolio-parts.ts';
import { portfolioDeleteInput } from './schemas.ts';

export const deletePortfolio = projectMutation(portfolioDeleteInput, {
  action: 'make_submission',
  refused: (id) => `Not authorised to alter portfolio for project '${id}'`,
})
  .meta(
    route('DELETE', '/api/submission/project/{id}/portfolio', 'Submission batches and portfolios', 'Remove a portfolio part, or the compiled portfolio', {
      description:
        'With `idx`, `kind` and `name` (query or JSON body, as the web client sends them): removes that part (404 when ' +
        'there is none). See docs/api/projects.md.',
      rest: { status: 204 },
    }),
  )
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    const given = [input.idx, input.kind, input.name].filter((v) => v !== undefined).length;
    if (given === 0) {
      await db(ctx.em).updateTable('projects').set({ portfolio_production_date: null }).where('id', '=', ctx.project.id).execute();
      const key = storageKeys.portfolio(ctx.project.id);
      ctx.afterCommit(() => void ctx.storage.delete(key).catch(() => undefined));
      return true as const;
    }
    if (input.idx === undefined || input.kind === undefined || input.name === undefined) {
      throw badRequest('idx, kind and name are needed together to remove a portfolio file');
    }
    const key = await removePortfolioPart(ctx.em, ctx.project.id, { idx: input.idx, kind: input.kind, name: input.name });
    if (key === null) throw notFound('Unable to find the portfolio file to remove');
    ctx.afterCommit(() => void ctx.storage.delete(key).catch(() => undefined));
    return true as const;
  });
