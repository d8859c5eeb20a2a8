// GET /api/submission/unit/{id}/portfolio (beyond-spec.md §7): every compiled portfolio of the
// unit's enrolled students in one zip, built for each request and written while it is sent.
import { route } from '../../../trpc/route.ts';
import { writeZip } from '../../../lib/zip.ts';
import { fileResult, type FileResult } from '../../../lib/files.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { portfolioEntries } from '../../../operations/submission/unit/zip-entries.ts';
import { UNIT_ZIP_REFUSED, unitZipInput, zipDownloadName } from './schemas.ts';

export const downloadUnitPortfolios = unitQuery(unitZipInput, { field: 'id', action: 'provide_feedback', refused: UNIT_ZIP_REFUSED })
  .meta(
    route(
      'GET',
      '/api/submission/unit/{id}/portfolio',
      'Submission batches and portfolios',
      "Download every compiled portfolio of the unit's enrolled students",
      {
        description:
          '`<YYYY-MM-DD HH_MM_SS>-<CODE>-portfolios.zip` (`application/zip`, attachment) holding ' +
          '`<Pass|Credit|Distinction|High Distinction>/<username>-portfolio (<Tutor Name (TUTORIAL)> ...).pdf` for each ' +
          'enrolled student with a compiled portfolio, filed by submitted grade (else target grade). See ' +
          'docs/api/projects.md.',
        rest: { file: true },
      },
    ),
  )
  .output(fileResult().meta({ contentMediaType: 'application/zip' }))
  .query(async ({ ctx }): Promise<FileResult> => {
    const now = ctx.clock.now();
    const entries = await portfolioEntries(ctx.em, ctx.storage, ctx.unit.id, now);
    return { filename: zipDownloadName(now, ctx.unit.code, 'portfolios'), contentType: 'application/zip', data: writeZip(entries), asAttachment: true };
  });
