// GET .../submission_files: the latest upload's files as a zip.
import { basename } from 'node:path';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { fileNotFoundPdf } from '../../../../lib/placeholder-pdf.ts';
import { safeEntryPart, writeZip } from '../../../../lib/zip.ts';
import { zipEntryOpener, type Storage } from '../../../../storage/index.ts';
import type { FileResult } from '../../../../lib/files.ts';
import { filesEntries, sharingTaskIds } from '../submission/submission-files.ts';

export interface FilesOf {
  /** The student's task, when it exists. */
  taskId: number | null;
  /** The project's student, whose username names the zip. */
  studentId: number;
  abbreviation: string;
}

/** `<username>-<ABBREVIATION>.zip` of the latest upload (the group's, for group work); `FileNotFound.pdf` without one. */
export async function zipSubmissionFiles(em: Em, storage: Storage, of: FilesOf): Promise<FileResult> {
  const [entry] = of.taskId === null ? [] : await filesEntries(em, await sharingTaskIds(em, of.taskId), 1);
  if (!entry) return { filename: 'FileNotFound.pdf', contentType: 'application/pdf', data: fileNotFoundPdf(), asAttachment: true };
  const stored = await db(em).selectFrom('submission_files').select('storage_path').where('submission_id', '=', entry.id).orderBy('idx').execute();
  const student = await db(em).selectFrom('users').select('username').where('id', '=', of.studentId).executeTakeFirstOrThrow();
  const entries = stored.map((f) => ({ name: basename(f.storage_path), open: zipEntryOpener(storage, f.storage_path) }));
  return {
    filename: `${safeEntryPart(student.username)}-${safeEntryPart(of.abbreviation)}.zip`,
    contentType: 'application/zip',
    data: writeZip(entries),
    asAttachment: true,
  };
}
