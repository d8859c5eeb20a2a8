// GET /api/submission/assess: the offline marking package of one tutor's waiting work, written
// while it is sent (the PDFs are opened one at a time as the zip reaches them).
import type { Em } from '../../../db/orm.ts';
import { MARKING_README, marksCsv, pdfEntryName } from '../../../domain/marking-package.ts';
import { safeEntryPart, writeZip, type ZipEntryOut } from '../../../lib/zip.ts';
import type { UnitRoleName } from '../../../policy/index.ts';
import { zipEntryOpener, type Storage } from '../../../storage/index.ts';
import { notFound } from '../../../lib/errors.ts';
import type { FileResult } from '../../../lib/files.ts';
import { markerFor } from './marker-for.ts';
import { tasksToMark, type TaskToMark } from './tasks-to-mark.ts';

export const DOWNLOAD_REFUSED = 'Not authorised to batch download ready to mark submissions';

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

/**
 * `<date>-<CODE>-<username>.zip`: marks.csv, readme.txt and the PDF of every task waiting for the
 * tutor's feedback (the caller's own, or `tutorUserId`'s when the caller may mark for others).
 */
export async function markingPackage(
  em: Em,
  storage: Storage,
  unit: { id: number; code: string },
  caller: { id: number; username: string; unitRole: UnitRoleName | null },
  tutorUserId: number | undefined,
  now: Date,
): Promise<FileResult> {
  const tutorId = await markerFor(em, unit.id, caller, tutorUserId, DOWNLOAD_REFUSED);
  const tasks = await tasksToMark(em, unit.id, tutorId, caller.id);
  if (tasks.length === 0) throw notFound('No files to download');
  const entries: ZipEntryOut[] = [
    { name: 'marks.csv', data: Buffer.from(marksCsv(tasks), 'utf8'), mtime: now },
    { name: 'readme.txt', data: Buffer.from(MARKING_README, 'utf8'), mtime: now },
    ...(await pdfEntries(storage, tasks, now)),
  ];
  const day = now.toISOString().slice(0, 10);
  return { filename: `${day}-${unit.code}-${caller.username}.zip`, contentType: 'application/zip', data: writeZip(entries), asAttachment: true };
}
