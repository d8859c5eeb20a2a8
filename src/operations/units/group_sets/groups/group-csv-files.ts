// What both group CSVs share: the uploaded file checked by content (a PDF renamed .csv is refused
// with what it really is) and read as CSV (BOM, CRLF, quoted fields, headers in any case and
// order: src/domain/csv.ts), and the downloaded file.
import { readFile } from 'node:fs/promises';
import { CsvError, decodeCsv, missingHeaders, readCsv, writeCsv, type CsvCell, type CsvRow } from '../../../../domain/csv.ts';
import { checkCsv, notOfKindMessage } from '../../../../lib/file-kinds.ts';
import { badRequest, forbidden } from '../../../../lib/errors.ts';
import { csvDownload, type FileResult, type UploadedFile } from '../../../../lib/files.ts';
import type { RowResults } from '../../../import-rows.ts';

/** The answer of both uploads: the spec's `result` sentence saying what was done, with the rows behind it. */
export type CsvUploadOut = RowResults & { result: string };

/** A CSV download of a group set, named as the original names it: `<CODE>-<set name>-<what>.csv`. */
export function setCsvFile(unit: { code: string }, set: { name: string }, what: string, columns: readonly string[], rows: CsvCell[][]): FileResult {
  return csvDownload(`${unit.code}-${set.name}-${what}.csv`, writeCsv(columns, rows));
}

/** The rows of an uploaded CSV with these columns: 403 when it is not text, 400 when it is not CSV or lacks a column. */
export async function uploadedRows(file: UploadedFile, required: readonly string[]): Promise<CsvRow[]> {
  const check = await checkCsv(file.path);
  if (!check.ok) throw forbidden(notOfKindMessage('csv', check.detected));
  try {
    const { headers, rows } = await readCsv(decodeCsv(await readFile(file.path)));
    const missing = missingHeaders(headers, required);
    if (missing.length > 0) throw badRequest(`Missing headers: ${missing.join(', ')}`);
    return rows;
  } catch (error) {
    if (error instanceof CsvError) throw badRequest(error.message);
    throw error;
  }
}
