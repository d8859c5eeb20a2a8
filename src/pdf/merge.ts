// Uploaded PDFs, placed page by page at their own size with nothing drawn on them (beyond-spec.md
// §8.1). A PDF that will not open, is encrypted or has no pages is the student's to fix.
import { PDFDocument, type PDFPage } from 'pdf-lib';
import { SubmissionFileError } from './errors.ts';

/** Opens an uploaded PDF; SubmissionFileError when it cannot be used. */
export async function openSubmittedPdf(bytes: Uint8Array): Promise<PDFDocument> {
  let source: PDFDocument;
  let pages: number;
  try {
    // Loaded even when encrypted, to say so (pdf-lib's own error is not an instance of its class).
    source = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: true, ignoreEncryption: true });
    pages = source.isEncrypted ? -1 : source.getPageCount();
  } catch {
    throw new SubmissionFileError('is not a readable PDF');
  }
  if (pages === -1) throw new SubmissionFileError('is an encrypted PDF: remove its password and protection, then upload it again');
  if (pages === 0) throw new SubmissionFileError('is a PDF without pages');
  return source;
}

/** Appends every page of `bytes` to `doc`; the number of pages added. */
export async function appendPdf(doc: PDFDocument, bytes: Uint8Array): Promise<number> {
  const source = await openSubmittedPdf(bytes);
  let pages: PDFPage[];
  try {
    pages = await doc.copyPages(source, source.getPageIndices());
  } catch {
    throw new SubmissionFileError('is a PDF whose pages cannot be read');
  }
  for (const page of pages) doc.addPage(page);
  return pages.length;
}
