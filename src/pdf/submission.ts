// A task's submission PDF (beyond-spec.md §8.2): the cover, then each file in upload-requirement
// order on pages of its own. Takes plain data and returns bytes, so it runs without a database;
// the same inputs give the same bytes (no clock, no random font tags).
import { PDFDocument } from 'pdf-lib';
import { codeColumns, codeRows, drawCode, languageFor } from './code.ts';
import { drawCover, type CoverInfo } from './cover.ts';
import { SubmissionFileError } from './errors.ts';
import { embedFonts } from './fonts.ts';
import { drawImage } from './images.ts';
import { MARGIN } from './layout.ts';
import { appendPdf } from './merge.ts';
import { drawNotebook } from './notebook.ts';
import { GREY, PdfWriter } from './writer.ts';

export interface SubmittedFile {
  /** The upload requirement's name. */
  name: string;
  kind: 'document' | 'image' | 'code';
  originalFilename: string;
  bytes: Uint8Array;
}

export interface BuildOptions {
  fallbackFontPath?: string;
  signal?: AbortSignal;
}

/** Decodes text as UTF-8 (bad bytes become U+FFFD, a BOM is dropped). */
export const decodeText = (bytes: Uint8Array): string => new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(bytes);

const extensionOf = (filename: string): string => (/\.([^./]+)$/.exec(filename)?.[1] ?? '').toLowerCase();

export async function buildSubmissionPdf(cover: CoverInfo, files: SubmittedFile[], options: BuildOptions = {}): Promise<{ bytes: Uint8Array; pages: number }> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(cover.taskName);
  doc.setAuthor(`${cover.submitter.firstName} ${cover.submitter.lastName}`.trim());
  doc.setSubject(`${cover.unitCode} ${cover.unitName}`.trim());
  doc.setCreator(cover.product);
  doc.setProducer('pdf-lib');
  doc.setCreationDate(cover.submittedAt);
  doc.setModificationDate(cover.submittedAt);
  const fonts = await embedFonts(doc, options.fallbackFontPath);
  const writer = new PdfWriter(doc, fonts, cover.product);
  drawCover(writer, cover);

  for (const [i, file] of files.entries()) {
    options.signal?.throwIfAborted();
    writer.header = { left: `File ${i + 1} of ${files.length}`, right: file.name };
    writer.page = undefined;
    try {
      if (file.kind === 'document') {
        await appendPdf(doc, file.bytes);
        continue;
      }
      const page = writer.newPage();
      writer.y -= 10;
      writer.text(page, file.originalFilename, MARGIN, writer.y, 'sansBold', 10, GREY);
      writer.y -= 8;
      if (file.kind === 'image') await drawImage(writer, file.bytes);
      else if (extensionOf(file.originalFilename) === 'ipynb') await drawNotebook(writer, decodeText(file.bytes));
      else drawCode(writer, codeRows(decodeText(file.bytes), languageFor(extensionOf(file.originalFilename)), codeColumns(writer)));
    } catch (error) {
      if (error instanceof SubmissionFileError) throw new SubmissionFileError(`'${file.name}' (${file.originalFilename}) ${error.message}.`);
      throw error;
    }
  }
  writer.finish();
  const bytes = await doc.save();
  return { bytes, pages: doc.getPageCount() };
}
