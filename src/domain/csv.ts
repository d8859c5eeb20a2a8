// CSV files as spreadsheets write them and people edit them: a UTF-8 byte-order mark, CRLF or LF
// line ends, quoted fields (with commas, quotes and line breaks inside), headers in any case and
// order with stray spaces, blank lines. Reading and writing only; what a row means is the caller's.
// Every CSV the service writes goes through writeCsv and every one it reads through
// CSV_READ_OPTIONS, so formula escaping (below) is done once each way.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate } from 'node:timers/promises';
import { parse, type Options } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';

/** One data row, keyed by its header lower-cased and trimmed; every value trimmed ('' when absent). */
export type CsvRow = Record<string, string>;

export class CsvError extends Error {}

/** A normalised header: `Unit Code ` and `unit_code` are the same column. */
export function headerKey(header: string): string {
  return header.trim().toLowerCase().replace(/\s+/g, '_');
}

/** Bytes the parser takes before the event loop gets a turn: a few milliseconds of parsing. */
const SLICE_BYTES = 16 * 1024;

/**
 * Parses CSV bytes with csv-parse's streaming parser, a slice at a time, yielding to the event
 * loop between slices: a 10 MB file parsed in one go blocked every request for over a second.
 * `each` receives every record as it is parsed. Any parse error rejects.
 */
export async function parseCsvSlices<T>(bytes: Uint8Array, options: Options, each: (record: T) => void): Promise<void> {
  const parser = parse(options);
  const slices = async function* () {
    for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
      yield Buffer.from(bytes.buffer, bytes.byteOffset + at, Math.min(SLICE_BYTES, bytes.length - at));
      await setImmediate();
    }
  };
  await pipeline(Readable.from(slices()), parser, async (records: AsyncIterable<T>) => {
    for await (const record of records) each(record);
  });
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
} satisfies Options;

/**
 * The rows of a CSV text (the first line is the header). Invalid UTF-8 was already replaced by
 * the decoder. Throws CsvError with the parser's reason when the text is not CSV at all (an
 * unclosed quote, for one).
 */
export async function readCsv(text: string): Promise<{ headers: string[]; rows: CsvRow[] }> {
  let headers: string[] = [];
  const rows: CsvRow[] = [];
  const options: Options = { ...CSV_READ_OPTIONS, columns: (line: string[]) => (headers = line.map(headerKey)) };
  try {
    await parseCsvSlices<CsvRow>(Buffer.from(text), options, (record) => {
      const row = Object.fromEntries(headers.map((h) => [h, record[h] ?? '']));
      // A row of empty cells (",,,") is a blank line to a person.
      if (Object.values(row).some((v) => v !== '')) rows.push(row);
    });
  } catch (error) {
    throw new CsvError(`Unable to read the CSV file: ${(error as Error).message}`);
  }
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
