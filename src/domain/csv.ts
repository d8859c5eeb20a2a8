// CSV files as spreadsheets write them and people edit them: a UTF-8 byte-order mark, CRLF or LF
// line ends, quoted fields (with commas, quotes and line breaks inside), headers in any case and
// order with stray spaces, blank lines. Reading and writing only; what a row means is the caller's.
// Every CSV the service writes goes through writeCsv and every one it reads through
// CSV_READ_OPTIONS, so formula escaping (below) is done once each way.
import { parse, type Options as ParseOptions } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';

/** One data row, keyed by its header lower-cased and trimmed; every value trimmed ('' when absent). */
export type CsvRow = Record<string, string>;

export class CsvError extends Error {}

/** A normalised header: `Unit Code ` and `unit_code` are the same column. */
export function headerKey(header: string): string {
  return header.trim().toLowerCase().replace(/\s+/g, '_');
}

/**
 * A cell a spreadsheet would run as a formula starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return (or a full-width `＝＋－＠`); writeCsv puts a single quote before it (OWASP's advice, done
 * by csv-stringify's `escape_formulas`). Reading takes one such quote off again, so what we write
 * imports back unchanged; a quote before anything else is the cell's own. (Text that already
 * starts with quotes and a sign gets one more quote, so it too reads back as it was.)
 */
const ESCAPED_FORMULA = /^'+[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A cell as read: one escaping quote taken off, then trimmed like every other value. */
export function readCell(value: string): string {
  return (ESCAPED_FORMULA.test(value) ? value.slice(1) : value).trim();
}

/** csv-parse options of every CSV upload (the caller adds `columns`). */
export const CSV_READ_OPTIONS = {
  bom: true,
  skip_empty_lines: true,
  // A row with fewer or more cells than the header is still read; missing cells are ''.
  relax_column_count: true,
  trim: true,
  cast: (value: string) => readCell(value),
} satisfies ParseOptions;

/**
 * The rows of a CSV text (the first line is the header). Invalid UTF-8 was already replaced by
 * the decoder. Throws CsvError with the parser's reason when the text is not CSV at all (an
 * unclosed quote, for one).
 */
export function readCsv(text: string): { headers: string[]; rows: CsvRow[] } {
  let headers: string[] = [];
  let records: CsvRow[];
  try {
    records = parse(text, { ...CSV_READ_OPTIONS, columns: (line: string[]) => (headers = line.map(headerKey)) }) as CsvRow[];
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

export type CsvCell = string | number | boolean | null | undefined;

/**
 * A CSV text with CRLF line ends (RFC 4180); fields with separators, quotes or line breaks are
 * quoted, and text that starts like a formula gets a single quote first (above). Numbers stay
 * numbers, so a negative one (-1) is written as it is: it is a value, not a formula.
 */
export function writeCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const cell = (v: CsvCell) => {
    if (v === null || v === undefined) return '';
    if (typeof v === 'number') return v;
    // A cell that already looks escaped gets a quote of its own, so reading it back loses nothing.
    return ESCAPED_FORMULA.test(String(v)) ? `'${String(v)}` : String(v);
  };
  return stringify([header.map(cell), ...rows.map((r) => r.map(cell))], {
    record_delimiter: 'windows',
    quoted_match: /[\r\n]/,
    escape_formulas: true,
  });
}
