// Thread task (src/threads/pool.ts): a submission's PDF from its cover and files. A file the PDF
// cannot be made from is an outcome, not an error, since an error's class does not survive the
// way back from a thread; the PDF's bytes are moved back, not copied.
import { moveBack, transferable } from './moving.ts';
import type { CoverInfo } from '../pdf/cover.ts';
import { SubmissionFileError } from '../pdf/errors.ts';
import { buildSubmissionPdf, type SubmittedFile } from '../pdf/submission.ts';

export interface RenderSubmissionInput {
  cover: CoverInfo;
  files: SubmittedFile[];
  fallbackFontPath?: string;
  maxPagesPerFile: number;
}

export type RenderSubmissionOutcome = { ok: true; pdf: Uint8Array; pages: number } | { ok: false; reason: string };

export default async function renderSubmission(input: RenderSubmissionInput): Promise<RenderSubmissionOutcome> {
  try {
    const { bytes, pages } = await buildSubmissionPdf(input.cover, input.files, {
      fallbackFontPath: input.fallbackFontPath,
      maxPagesPerFile: input.maxPagesPerFile,
    });
    const pdf = transferable(bytes);
    return moveBack<RenderSubmissionOutcome>({ ok: true, pdf, pages }, [pdf.buffer]);
  } catch (error) {
    if (error instanceof SubmissionFileError) return { ok: false, reason: error.message };
    throw error;
  }
}
