import { route } from '../../../../trpc/route.ts';
import { db } from '../../../../db/kysely.ts';
import { fileNotFoundPdf } from '../../../../lib/placeholder-pdf.ts';
import { storageKeys } from '../../../../storage/index.ts';
import { fileResult, type FileResult } from '../../../../trpc/files.ts';
import { projectQuery } from '../../../../trpc/scopes/index.ts';
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
  .query(async ({ ctx, input }): Promise<FileResult> => {
    const pdf = await ctx.storage.open(storageKeys.portfolio(ctx.project.id));
    if (!pdf) return { filename: 'FileNotFound.pdf', contentType: 'application/pdf', data: fileNotFoundPdf(), asAttachment: input.as_attachment };
    const owner = await db(ctx.em)
      .selectFrom('projects as p')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .select('u.username')
      .where('p.id', '=', ctx.project.id)
      .executeTakeFirstOrThrow();
    return {
      filename: `${ctx.unit.code}-${owner.username}-portfolio.pdf`,
      contentType: 'application/pdf',
      data: pdf.stream,
      size: pdf.size,
      asAttachment: input.as_attachment,
    };
  });
