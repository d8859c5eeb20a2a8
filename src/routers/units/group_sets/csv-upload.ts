// What both group CSV uploads share: the file checked by content (a PDF renamed .csv is refused
// with what it really is), read as CSV (BOM, CRLF, quoted fields, headers in any case and order:
// src/domain/csv.ts), each row applied in a savepoint so a row that fails leaves nothing behind,
// and the answer: the spec's `result` sentence saying what was done, with the rows behind it.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Em } from '../../../db/orm.ts';
import { CsvError, decodeCsv, missingHeaders, readCsv, type CsvRow } from '../../../domain/csv.ts';
import { checkCsv, notOfKindMessage } from '../../../lib/file-kinds.ts';
import { badRequest, forbidden, legacyError } from '../../../trpc/errors.ts';
import type { UploadedFile } from '../../../trpc/files.ts';
import { idField } from '../../../trpc/fields.ts';
import { uploadedFile } from '../../../trpc/files.ts';

export const groupSetCsvInput = z.object({ unit_id: idField(), group_set_id: idField() });
export const groupSetCsvUploadInput = groupSetCsvInput.extend({ file: uploadedFile() });

const rowResult = z.object({ row: z.record(z.string(), z.string()), message: z.string() });
export const csvUploadOut = z.object({ result: z.string(), success: z.array(rowResult), errors: z.array(rowResult), ignored: z.array(rowResult) });
export type CsvUploadOut = z.infer<typeof csvUploadOut>;

export interface RowResult {
  row: CsvRow;
  message: string;
}
export interface RowResults {
  success: RowResult[];
  errors: RowResult[];
  ignored: RowResult[];
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

/**
 * Runs one row's changes in a savepoint: a refusal (4xx) or a database rule that fails undoes that
 * row only and comes back as its message; anything unexpected still fails the whole upload.
 */
export async function inSavepoint<T>(em: Em, apply: (em: Em) => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; message: string }> {
  try {
    return { ok: true, value: await em.transactional((inner) => apply(inner as Em)) };
  } catch (error) {
    const { status, message, unexpected } = legacyError(error);
    if (unexpected || status >= 500) throw error;
    return { ok: false, message };
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "2 groups created, 1 updated. 1 row ignored. 1 row with errors: ..." from counts of what was done and the rows' problems. */
export function summarise(done: string[], results: RowResults): string {
  const parts = [done.length ? done.join(', ') : 'Nothing changed'];
  if (results.ignored.length) parts.push(`${plural(results.ignored.length, 'row')} ignored`);
  if (results.errors.length) parts.push(`${plural(results.errors.length, 'row')} with errors: ${results.errors.map((e) => e.message).join('; ')}`);
  return `${parts.join('. ')}.`;
}

export { plural };
