// CSV files as spreadsheets write them and people edit them: a UTF-8 byte-order mark, CRLF or LF
// line ends, quoted fields (with commas, quotes and line breaks inside), headers in any case and
// order with stray spaces, blank lines. Reading and writing only; what a row means is the caller's.
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';

/** One data row, keyed by its header lower-cased and trimmed; every value trimmed ('' when absent). */
export type CsvRow = Record<string, string>;

export class CsvError extends Error {}

/** A normalised header: `Unit Code ` and `unit_code` are the same column. */
export function headerKey(header: string): string {
  return header.trim().toLowerCase().replace(/\s+/g, '_');
}

/**
 * The rows of a CSV text (the first line is the header). Invalid UTF-8 was already replaced by
 * the decoder. Throws CsvError with the parser's reason when the text is not CSV at all (an
 * unclosed quote, for one).
 */
export function readCsv(text: string): { headers: string[]; rows: CsvRow[] } {
  let headers: string[] = [];
  let records: CsvRow[];
  try {
    records = parse(text, {
      bom: true,
      columns: (line: string[]) => (headers = line.map(headerKey)),
      skip_empty_lines: true,
      // A row with fewer or more cells than the header is still read; missing cells are ''.
      relax_column_count: true,
      trim: true,
    }) as CsvRow[];
  } catch (error) {
    throw new CsvError(`Unable to read the CSV file: ${(error as Error).message}`);
  }
  const rows = records
    .map((record) => Object.fromEntries(headers.map((h) => [h, record[h] ?? ''])))
    // A row of empty cells (",,,") is a blank line to a person.
    .filter((row) => Object.values(row).some((v) => v !== ''));
  return { headers, rows };
}

/** The required columns a header row lacks, in the order given. */
export function missingHeaders(headers: readonly string[], required: readonly string[]): string[] {
  return required.filter((h) => !headers.includes(h));
}

/** Decodes an uploaded file: UTF-8, invalid bytes replaced rather than refused. */
export function decodeCsv(bytes: Buffer): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

/** Binary content (a NUL byte in the first 8 KiB) is no CSV: spreadsheets and archives are refused. */
export function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

/** A CSV text with CRLF line ends (RFC 4180); fields with separators, quotes or line breaks are quoted. */
export function writeCsv(header: readonly string[], rows: readonly (readonly (string | number | boolean | null | undefined)[])[]): string {
  return stringify([header as string[], ...rows.map((r) => r.map((v) => (v === null || v === undefined ? '' : String(v))))], {
    record_delimiter: 'windows',
    quoted_match: /[\r\n]/,
  });
}
