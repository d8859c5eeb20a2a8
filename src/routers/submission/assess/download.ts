// GET /api/submission/assess: the offline marking package of one tutor's waiting work, written
// while it is sent (the PDFs are opened one at a time as the zip reaches them).
import { route } from '../../../trpc/route.ts';
import { MARKING_README, marksCsv, pdfEntryName } from '../../../domain/marking-package.ts';
import { safeEntryPart, writeZip, type ZipEntryOut } from '../../../lib/zip.ts';
import { zipEntryOpener, type Storage } from '../../../storage/index.ts';
import { notFound } from '../../../trpc/errors.ts';
import { fileResult, type FileResult } from '../../../trpc/files.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { markerFor } from '../../../operations/submission/assess/marker-for.ts';
import { assessDownloadInput } from './schemas.ts';
import { tasksToMark, type TaskToMark } from '../../../operations/submission/assess/tasks-to-mark.ts';

const REFUSED = 'Not authorised to batch download ready to mark submissions';

/** The PDFs that exist now; one that disappears while the zip is written cuts the download off. */
async function pdfEntries(storage: Storage, tasks: readonly TaskToMark[], at: Date): Promise<ZipEntryOut[]> {
  const entries: ZipEntryOut[] = [];
  for (const task of tasks) {
    if (task.pdfKey === null || !(await storage.exists(task.pdfKey))) continue;
    const key = task.pdfKey;
    entries.push({
      name: pdfEntryName(safeEntryPart(task.username), safeEntryPart(task.abbreviation), task.taskId),
      mtime: at,
      compress: false,
      open: zipEntryOpener(storage, key),
    });
  }
  return entries;
}

export const downloadMarkingPackage = unitQuery(assessDownloadInput, { action: 'provide_feedback', refused: REFUSED })
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
  .query(async ({ ctx, input }): Promise<FileResult> => {
    const tutorId = await markerFor(ctx.em, ctx.unit.id, { id: ctx.user.id, unitRole: ctx.unitRole }, input.user_id, REFUSED);
    const tasks = await tasksToMark(ctx.em, ctx.unit.id, tutorId, ctx.user.id);
    if (tasks.length === 0) throw notFound('No files to download');
    const now = ctx.clock.now();
    const entries: ZipEntryOut[] = [
      { name: 'marks.csv', data: Buffer.from(marksCsv(tasks), 'utf8'), mtime: now },
      { name: 'readme.txt', data: Buffer.from(MARKING_README, 'utf8'), mtime: now },
      ...(await pdfEntries(ctx.storage, tasks, now)),
    ];
    const day = now.toISOString().slice(0, 10);
    return { filename: `${day}-${ctx.unit.code}-${ctx.user.username}.zip`, contentType: 'application/zip', data: writeZip(entries), asAttachment: true };
  });
