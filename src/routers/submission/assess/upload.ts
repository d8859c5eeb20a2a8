// POST /api/submission/assess: the marking package back (src/routers/submission/assess/apply-marks.ts).
import { route } from '../../../trpc/route.ts';
import { join } from 'node:path';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { queueFeedbackMails } from '../../../mail/queue.ts';
import { applyMarks } from '../../../operations/submission/assess/apply-marks.ts';
import { markerFor } from '../../../operations/submission/assess/marker-for.ts';
import { assessUploadInput, assessUploadOut } from './schemas.ts';

const REFUSED = 'Not authorised to batch upload marks';

export const uploadMarks = unitMutation(assessUploadInput, { action: 'provide_feedback', refused: REFUSED })
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
  .mutation(async ({ ctx, input }) => {
    await markerFor(ctx.em, ctx.unit.id, { id: ctx.user.id, unitRole: ctx.unitRole }, input.user_id, REFUSED);
    // As in the original, batch marking is the one kind of marking that e-mails students.
    const feedback = new Set<number>();
    const result = await applyMarks(
      {
        em: ctx.em,
        storage: ctx.storage,
        unitId: ctx.unit.id,
        markerId: ctx.user.id,
        now: ctx.clock.now(),
        workDir: join(ctx.config.dataDir, 'incoming'),
        maxEntryBytes: ctx.config.maxUploadBytes,
        feedback,
      },
      input.file.path,
    );
    await queueFeedbackMails(ctx.em, ctx.jobs, { taskIds: feedback, markerId: ctx.user.id });
    return result;
  });
