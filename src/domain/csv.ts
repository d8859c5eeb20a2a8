// CSV files as spreadsheets write them and people edit them: a UTF-8 byte-order mark, CRLF or LF
// line ends, quoted fields (with commas, quotes and line breaks inside), headers in any case and
// order with stray spaces, blank lines. Reading and writing only; what a row means is the caller's.
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
 * The rows of a CSV text (the first line is the header). Invalid UTF-8 was already replaced by
 * the decoder. Throws CsvError with the parser's reason when the text is not CSV at all (an
 * unclosed quote, for one).
 */
export async function readCsv(text: string): Promise<{ headers: string[]; rows: CsvRow[] }> {
  let headers: string[] = [];
  const rows: CsvRow[] = [];
  const options: Options = {
    bom: true,
    columns: (line: string[]) => (headers = line.map(headerKey)),
    skip_empty_lines: true,
    // A row with fewer or more cells than the header is still read; missing cells are ''.
    relax_column_count: true,
    trim: true,
  };
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

/** A CSV text with CRLF line ends (RFC 4180); fields with separators, quotes or line breaks are quoted. */
export function writeCsv(header: readonly string[], rows: readonly (readonly (string | number | boolean | null | undefined)[])[]): string {
  return stringify([header as string[], ...rows.map((r) => r.map((v) => (v === null || v === undefined ? '' : String(v))))], {
    record_delimiter: 'windows',
    quoted_match: /[\r\n]/,
  });
}
