// POST /api/submission/assess: the marking package back (src/operations/submission/assess/apply-marks.ts).
import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { UPLOAD_REFUSED, uploadMarks as upload } from '../../../operations/submission/assess/upload-marks.ts';
import { assessUploadInput, assessUploadOut } from './schemas.ts';

export const uploadMarks = unitMutation(assessUploadInput, { action: 'provide_feedback', refused: UPLOAD_REFUSED })
  .meta(
    route(
      'POST',
      '/api/submission/assess',
      'Submission batches and portfolios',
      'Upload marks.csv (alone or in the marking zip with annotated PDFs) to assess many tasks at once',
      {
        description:
          'Multipart `file`: a CSV, or a zip holding `marks.csv` (by content; anything else, a zip without marks.csv, or ' +
          'a CSV missing any of the columns `Username,Name,Tutorial,Task,Status,New Grade,New Quality,New Comment` (any ' +
          'case) is a 400). See docs/api/projects.md.',
        rest: { upload: {} },
      },
    ),
  )
  .output(assessUploadOut)
  .mutation(({ ctx, input }) =>
    upload(
      ctx.em,
      { storage: ctx.storage, jobs: ctx.jobs, config: ctx.config, now: ctx.clock.now() },
      ctx.unit.id,
      { id: ctx.user.id, unitRole: ctx.unitRole },
      input.user_id,
      input.file.path,
    ),
  );
