// How much of a submitted text file a PDF needs (PDF_MAX_PAGES_PER_FILE): the job reads only the
// beginning of a long code file, so memory and time follow the pages shown, not the file. Upper
// bounds from the page geometry, kept apart from the renderer so the job that reads the file does
// not load it.
import { BOTTOM, TOP } from './layout.ts';

/** Code is printed at 8 pt with 1.3 line spacing (src/pdf/code.ts). */
export const CODE_SIZE = 8;
export const CODE_LINE_HEIGHT = CODE_SIZE * 1.3;

/** No code row holds more characters than this (the A4 text width over the narrowest monospaced character). */
const MAX_ROW_CHARACTERS = 100;

/**
 * The most lines and bytes of a file that `pages` pages of code can show: every line takes at least
 * a row, and a row at most MAX_ROW_CHARACTERS characters of at most 4 bytes of UTF-8.
 */
export function textReadLimits(pages: number): { maxLines: number; maxBytes: number } {
  const rows = pages * Math.ceil((TOP - BOTTOM) / CODE_LINE_HEIGHT);
  return { maxLines: rows, maxBytes: rows * MAX_ROW_CHARACTERS * 4 };
}

/** Notebooks are JSON, and JSON is read whole; every other code file can be cut. */
export const readWhole = (filename: string): boolean => /\.ipynb$/i.test(filename);
