import { route } from '../../../../trpc/route.ts';
import { fileResult } from '../../../../lib/files.ts';
import { projectQuery } from '../../../../trpc/scopes/index.ts';
import { portfolioDownload } from '../../../../operations/submission/project/portfolio/portfolio-download.ts';
import { portfolioDownloadInput } from './schemas.ts';

export const downloadPortfolio = projectQuery(portfolioDownloadInput, {
  action: 'get_submission',
  refused: (id) => `Not authorised to download portfolio for project '${id}'`,
})
  .meta(
    route('GET', '/api/submission/project/{id}/portfolio', 'Submission batches and portfolios', 'Download the compiled portfolio', {
      description:
        'The compiled portfolio as `application/pdf`, named `<CODE>-<username>-portfolio.pdf`, inline unless ' +
        '`as_attachment=true`; without one, the placeholder `FileNotFound.pdf` (200), as the original. The owning ' +
        'student or staff of the unit.',
      rest: { file: true },
    }),
  )
  .output(fileResult().meta({ contentMediaType: 'application/pdf' }))
  .query(({ ctx, input }) => portfolioDownload(ctx.em, ctx.storage, { id: ctx.project.id, unitCode: ctx.unit.code }, input.as_attachment));
