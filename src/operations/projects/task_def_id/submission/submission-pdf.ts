// GET .../submission (beyond-spec.md §4.2): the task's submission PDF, or the original's placeholders.
import type { Em } from '../../../../db/orm.ts';
import { awaitingProcessingPdf, fileNotFoundPdf } from '../../../../lib/placeholder-pdf.ts';
import { storedDownload, type Storage } from '../../../../storage/index.ts';
import type { FileResult } from '../../../../lib/files.ts';
import { ensureTask } from '../../../tasks/tasks.ts';
import { submissionState } from './submission-files.ts';

export interface PdfOf {
  taskId: number | null;
  projectId: number;
  definition: { id: number; abbreviation: string };
}

/** `<ABBREVIATION>.pdf`; `AwaitingProcessing.pdf` while it is built, `FileNotFound.pdf` without one. */
export async function submissionPdf(em: Em, storage: Storage, of: PdfOf, asAttachment: boolean, now: Date): Promise<FileResult> {
  // As the original, reading a task creates its row.
  const taskId = of.taskId ?? (await ensureTask(em, of.projectId, of.definition.id, now));
  const state = await submissionState(em, storage, taskId);
  const placeholder = (filename: string, data: Buffer): FileResult => ({ filename, contentType: 'application/pdf', data, asAttachment });
  if (state.processing) return placeholder('AwaitingProcessing.pdf', awaitingProcessingPdf());
  // Opened as it is sent, all of it or the range a PDF viewer asks for.
  const pdf = state.pdfKey ? await storedDownload(storage, state.pdfKey) : null;
  if (!pdf) return placeholder('FileNotFound.pdf', fileNotFoundPdf());
  return { filename: `${of.definition.abbreviation}.pdf`, contentType: 'application/pdf', data: pdf, size: pdf.size, asAttachment, ranges: true };
}
