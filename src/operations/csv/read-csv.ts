// Reading an uploaded CSV: headers matched case-insensitively and trimmed (reference §9.3).
import { readFile } from 'node:fs/promises';
import { CSV_READ_OPTIONS, CsvError, type CsvRow, decodeCsv, looksBinary, parseCsvSlices } from '../../domain/csv.ts';
import { badRequest, forbidden } from '../../lib/errors.ts';
import type { UploadedFile } from '../../lib/files.ts';

export type { CsvRow };

/** One row of an import's answer: the row as read, and what happened to it. */
export interface RowResult {
  row: CsvRow;
  message: string;
}

export interface ImportResult {
  success: RowResult[];
  errors: RowResult[];
  ignored: RowResult[];
}

/**
 * The file's rows keyed by lower-cased, trimmed header, values trimmed. A file that is plainly
 * not text (NUL bytes, a PDF) is refused with 403, as the original refuses non-CSV files;
 * text that cannot be parsed as CSV is a 400.
 */
export async function readCsv(file: UploadedFile): Promise<CsvRow[]> {
  const bytes = await readFile(file.path);
  if (bytes.includes(0) || bytes.subarray(0, 5).toString('latin1') === '%PDF-') {
    throw forbidden(`File given is not a csv file - detected ${file.contentType || 'application/octet-stream'}`);
  }
  const rows: CsvRow[] = [];
  try {
    await parseCsvSlices<CsvRow>(bytes, { ...CSV_READ_OPTIONS, columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()) }, (row) =>
      rows.push(row),
    );
  } catch (error) {
    throw badRequest(`The CSV file cannot be read: ${(error as Error).message}`);
  }
  return rows;
}

/** The original's refusal of a file that is not CSV (reference §2.3). */
export const NOT_CSV = 'File given is not a csv file - detected application/octet-stream';

/**
 * Reads an uploaded file as text and hands it to `importText`: a file that is plainly not text is
 * refused (403, NOT_CSV), and text that cannot be read as CSV is a 400.
 */
export async function importCsvFile<T>(path: string, importText: (text: string) => Promise<T>): Promise<T> {
  const bytes = await readFile(path);
  if (looksBinary(bytes)) throw forbidden(NOT_CSV);
  try {
    return await importText(decodeCsv(bytes));
  } catch (error) {
    if (error instanceof CsvError) throw badRequest(error.message);
    throw error;
  }
}
