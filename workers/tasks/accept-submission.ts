import { Readable } from 'node:stream';
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { SubmittedFile } from '../../src/pdf/submission.ts';
import { readWhole, textReadLimits } from '../../src/pdf/limits.ts';
import { isOutOfMemory } from '../../src/threads/pool.ts';
import { transferable } from '../../src/threads/moving.ts';
import type { RenderSubmissionOutcome } from '../../src/threads/render-submission.ts';
import { renderSubmissionInThread } from '../../src/threads/tasks.ts';
import { submissionCover, submissionToBuild, type StoredSubmissionFile } from '../../src/operations/projects/task_def_id/submission/submission-to-build.ts';
import { recordSubmissionFailure, recordSubmissionPdf } from '../../src/operations/projects/task_def_id/submission/record-submission-pdf.ts';
import { readAll, readHead, StoredFileTooLarge, storageKeys, type Storage } from '../../src/storage/index.ts';
import { MAX_SUBMISSION_FILE_BYTES } from '../../src/domain/submission-files.ts';
import type { WorkerServices } from '../services.ts';

const payloadSchema = z.object({ taskId: z.number().int().positive(), submissionId: z.number().int().positive() });

/**
 * Builds a submission's PDF (beyond-spec.md §8.2) from its stored files, stores it atomically
 * under the submission's key and points every task of the submission (the group's, for group
 * work) at it. Idempotent: a rerun rebuilds the same bytes; a submission a newer upload replaced,
 * or one already gone, is skipped. A file the PDF cannot be made from moves the task to fix and
 * resubmit with an automated comment and completes the job; anything else throws, and
 * graphile-worker retries.
 */
export function acceptSubmission(services: WorkerServices): Task {
  return async (rawPayload, helpers) => {
    const { submissionId } = payloadSchema.parse(rawPayload);
    const em = services.orm.em.fork();
    const found = await submissionToBuild(em, submissionId);
    if (found.state === 'gone') {
      helpers.logger.info(`submission ${submissionId} no longer exists; no PDF to build`);
      return;
    }
    if (found.state === 'superseded') {
      helpers.logger.info(`submission ${submissionId} was replaced by a newer upload; skipped`);
      return;
    }
    const { taskId, files } = found;
    const names = { institution: services.config.institutionName, product: services.config.externalName };
    const cover = await submissionCover(em, names, taskId, found.submittedById, found.submittedAt);

    const { threads, pdfMaxPagesPerFile: maxPagesPerFile, pdfFallbackFont: fallbackFontPath } = services.config;
    let submitted: SubmittedFile[];
    try {
      submitted = await readFiles(services.storage, files, maxPagesPerFile);
    } catch (error) {
      if (!(error instanceof StoredFileTooLarge)) throw error;
      // Only if the per-file limit was lowered since the upload: no retry would read it either.
      const reason = `A file is larger than the ${MAX_SUBMISSION_FILE_BYTES / 1_000_000} MB a submitted file may hold: make it smaller, then upload it again.`;
      await recordSubmissionFailure(em, services.clock, taskId, submissionId, reason);
      helpers.logger.info(`submission ${submissionId}: no PDF (${error.message}); task sent back to fix and resubmit`);
      return;
    }
    let built: RenderSubmissionOutcome;
    try {
      // In a pool thread: the event loop keeps answering requests. A stopping worker's abort signal ends the thread.
      built = await renderSubmissionInThread(
        threads,
        { cover, files: submitted, fallbackFontPath, maxPagesPerFile },
        { signal: helpers.abortSignal, transfer: submitted.map((f) => f.bytes.buffer as ArrayBuffer) },
      );
    } catch (error) {
      if (!isOutOfMemory(error)) throw error;
      built = {
        ok: false,
        reason:
          `Its PDF needs more than the ${threads.memoryMb} MB of memory the service gives one PDF: make the files smaller or simpler, ` +
          `then upload them again.`,
      };
    }
    if (!built.ok) {
      await recordSubmissionFailure(em, services.clock, taskId, submissionId, built.reason);
      helpers.logger.info(`submission ${submissionId}: no PDF (${built.reason}); task sent back to fix and resubmit`);
      return;
    }

    const key = storageKeys.submissionPdf(submissionId);
    await services.storage.put(key, Readable.from([Buffer.from(built.pdf.buffer, built.pdf.byteOffset, built.pdf.byteLength)]));
    const recorded = await recordSubmissionPdf(em, services.storage, taskId, submissionId, key);
    helpers.logger.info(`submission ${submissionId}: ${recorded ? `PDF of ${built.pages} pages stored` : 'replaced while its PDF was built; result dropped'}`);
  };
}

/**
 * The stored files as the thread gets them: whole, except long code files, of which only the
 * beginning the PDF can show is kept (with the whole file's size and lines, for the note). Whole
 * because pdf-lib merges a PDF, and an image is embedded, from one buffer; bounded by the limit
 * each file was uploaded under (MAX_SUBMISSION_FILE_BYTES), so memory follows that, never a file
 * the store happens to hold. Read from the store wherever this worker runs: no path of the API's.
 */
async function readFiles(storage: Storage, rows: StoredSubmissionFile[], maxPagesPerFile: number): Promise<SubmittedFile[]> {
  const files: SubmittedFile[] = [];
  for (const row of rows) {
    const kind = row.kind as SubmittedFile['kind'];
    const cut = kind === 'code' && !readWhole(row.original_filename);
    const head = cut ? await readHead(storage, row.storage_path, textReadLimits(maxPagesPerFile)) : null;
    const bytes = cut ? head?.bytes : await readAll(storage, row.storage_path, MAX_SUBMISSION_FILE_BYTES);
    // The upload stores its files after its transaction's statements; a missing file is a crash to retry.
    if (!bytes) throw new Error(`stored file ${row.storage_path} is missing`);
    files.push({
      name: row.name,
      kind,
      originalFilename: row.original_filename,
      bytes: transferable(bytes),
      ...(head ? { whole: { size: head.size, lines: head.lines } } : {}),
    });
  }
  return files;
}
