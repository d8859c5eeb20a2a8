// A task's submission PDF (beyond-spec.md §8.2): the cover, then each file in upload-requirement
// order on pages of its own. Takes plain data and returns bytes, so it runs without a database;
// the same inputs give the same bytes (no clock, no random font tags).
import { PDFDocument } from 'pdf-lib';
import { codeColumns, codeRows, codeRowsFitting, cutToRows, drawCode, languageFor } from './code.ts';
import { drawCover, type CoverInfo } from './cover.ts';
import { SubmissionFileError } from './errors.ts';
import { embedFonts } from './fonts.ts';
import { drawImage } from './images.ts';
import { MARGIN, TEXT_WIDTH, wrapWords } from './layout.ts';
import { appendPdf } from './merge.ts';
import { drawNotebook, type NotebookProgress } from './notebook.ts';
import { BLACK, GREY, PageLimitReached, PdfWriter } from './writer.ts';

export interface SubmittedFile {
  /** The upload requirement's name. */
  name: string;
  kind: 'document' | 'image' | 'code';
  originalFilename: string;
  /** The file's bytes; for a long code file only its beginning (readHead), enough for the pages shown. */
  bytes: Uint8Array;
  /** The whole file's size and lines when `bytes` may hold only its beginning. */
  whole?: { size: number; lines: number };
}

export interface BuildOptions {
  fallbackFontPath?: string;
  signal?: AbortSignal;
  /** Pages each code, text or notebook file may fill (PDF_MAX_PAGES_PER_FILE); the rest is left out with a note. */
  maxPagesPerFile?: number;
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
      writer.pagesLeft = options.maxPagesPerFile;
      const page = writer.newPage();
      writer.y -= 10;
      writer.text(page, file.originalFilename, MARGIN, writer.y, 'sansBold', 10, GREY);
      writer.y -= 8;
      let cutShort: string | null = null;
      if (file.kind === 'image') await drawImage(writer, file.bytes);
      else if (extensionOf(file.originalFilename) === 'ipynb') cutShort = await drawNotebookFile(writer, file, options.maxPagesPerFile);
      else cutShort = drawCodeFile(writer, file, options.maxPagesPerFile);
      writer.pagesLeft = undefined;
      if (cutShort) drawNote(writer, cutShort);
    } catch (error) {
      if (error instanceof SubmissionFileError) throw new SubmissionFileError(`'${file.name}' (${file.originalFilename}) ${error.message}.`);
      throw error;
    } finally {
      writer.pagesLeft = undefined;
    }
  }
  writer.finish();
  const bytes = await doc.save();
  return { bytes, pages: doc.getPageCount() };
}

const DOWNLOAD = "Download the file from the submission's files to read all of it.";
const sizeOf = (bytes: number) => (bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.ceil(bytes / 1000)} kB`);
const count = (n: number) => n.toLocaleString('en');

/**
 * A code or text file, coloured and printed up to the page limit. Only the part that fits is
 * coloured (highlight.js on a whole 10 MB file took minutes and gigabytes). Returns the note for a
 * file cut short, else null.
 */
function drawCodeFile(writer: PdfWriter, file: SubmittedFile, maxPages: number | undefined): string | null {
  const columns = codeColumns(writer);
  const text = decodeText(file.bytes);
  const rows = codeRowsFitting(writer, writer.pagesLeft ?? Infinity);
  const cut = cutToRows(text, columns, rows);
  drawCode(writer, codeRows(cut.text, languageFor(extensionOf(file.originalFilename)), columns).slice(0, rows));
  const size = file.whole?.size ?? file.bytes.length;
  const all = cut.whole && size === file.bytes.length;
  if (all) return null;
  // A beginning read up to a byte limit can end inside a line, which is then not counted as shown.
  const shown = cut.whole && !cut.text.endsWith('\n') ? cut.lines - 1 : cut.lines;
  const lines = file.whole?.lines ?? cut.lines;
  return (
    `${file.originalFilename} (${sizeOf(size)}) is cut short here: this PDF shows the first ${maxPages} pages of each file, ` +
    `here lines 1 to ${count(shown)} of ${count(lines)} lines. ${DOWNLOAD}`
  );
}

/** A notebook, cell by cell, up to the page limit; the note for one cut short, else null. */
async function drawNotebookFile(writer: PdfWriter, file: SubmittedFile, maxPages: number | undefined): Promise<string | null> {
  const shown: NotebookProgress = { cells: 0, total: 0 };
  try {
    await drawNotebook(writer, decodeText(file.bytes), shown);
    return null;
  } catch (error) {
    if (!(error instanceof PageLimitReached)) throw error;
  }
  return (
    `${file.originalFilename} (${sizeOf(file.bytes.length)}) is cut short here: this PDF shows the first ${maxPages} pages of each file, ` +
    `here up to cell ${count(shown.cells)} of ${count(shown.total)}. ${DOWNLOAD}`
  );
}

/** The note under a file cut short, in bold, kept together: on a new page if this one lacks the room. */
function drawNote(writer: PdfWriter, note: string): void {
  const lines = wrapWords(note, TEXT_WIDTH, (s) => writer.measure(s, 'sansBold', 9));
  const page = writer.ensure(6 + 13 * lines.length);
  writer.y -= 6;
  for (const line of lines) {
    writer.y -= 13;
    writer.text(page, line, MARGIN, writer.y, 'sansBold', 9, BLACK);
  }
}
