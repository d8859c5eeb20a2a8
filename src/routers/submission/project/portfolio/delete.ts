import { route } from '../../../../trpc/route.ts';
import { z } from 'zod';
import { projectMutation } from '../../../../trpc/scopes/index.ts';
import { removePortfolio } from '../../../../operations/submission/project/portfolio/remove-portfolio.ts';
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
  .mutation(({ ctx, input }) => removePortfolio(ctx.em, { storage: ctx.storage, afterCommit: ctx.afterCommit }, ctx.project.id, input));
