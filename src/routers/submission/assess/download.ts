// GET /api/submission/assess: the offline marking package of one tutor's waiting work, written
// while it is sent (the PDFs are opened one at a time as the zip reaches them).
import { route } from '../../../trpc/route.ts';
import { fileResult } from '../../../lib/files.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { DOWNLOAD_REFUSED, markingPackage } from '../../../operations/submission/assess/marking-package.ts';
import { assessDownloadInput } from './schemas.ts';

export const downloadMarkingPackage = unitQuery(assessDownloadInput, { action: 'provide_feedback', refused: DOWNLOAD_REFUSED })
  .meta(
    route('GET', '/api/submission/assess', 'Submission batches and portfolios', 'Download the work waiting for feedback in your tutorials, to mark offline', {
      description:
        '`<date>-<CODE>-<username>.zip` (`application/zip`, attachment), written while it is sent: `marks.csv` ' +
        "(`Username,Name,Tutorial,Task,Student's Last Comment,Your Last Comment,Status,New Grade,New Quality,Max " +
        'Quality,New Comment`; Status `rff` or `need_help`), `readme.txt`, and `<username>/<ABBR>-<task id>.pdf` for ' +
        "every task that is ready for feedback or needs help, whose student is in one of the tutor's tutorials (the " +
        "tutorial of the definition's stream). See docs/api/projects.md.",
      rest: { file: true },
    }),
  )
  .output(fileResult().meta({ contentMediaType: 'application/zip' }))
  .query(({ ctx, input }) =>
    markingPackage(ctx.em, ctx.storage, ctx.unit, { id: ctx.user.id, username: ctx.user.username, unitRole: ctx.unitRole }, input.user_id, ctx.clock.now()),
  );
