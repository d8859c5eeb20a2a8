// What the CSV and marks imports share: each row applied in a savepoint so a row that fails leaves
// nothing behind, the rows' results, and the sentence saying what was done.
import type { Em } from '../db/orm.ts';
import type { CsvRow } from '../domain/csv.ts';
import { translateDatabaseError } from '../db/translate-errors.ts';
import { AppError, isServiceFault } from '../lib/errors.ts';

/** One row of an import's answer: the row as read, and what happened to it. */
export interface RowResult {
  row: CsvRow;
  message: string;
}

export interface RowResults {
  success: RowResult[];
  errors: RowResult[];
  ignored: RowResult[];
}

/**
 * Runs one row's changes in a savepoint: a refusal (4xx) or a database rule that fails undoes that
 * row only and comes back as its message; anything unexpected still fails the whole upload.
 */
export async function inSavepoint<T>(em: Em, apply: (em: Em) => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; message: string }> {
  try {
    return { ok: true, value: await em.transactional((inner) => apply(inner as Em)) };
  } catch (error) {
    const refusal = error instanceof AppError ? error : translateDatabaseError(error);
    if (!refusal || isServiceFault(refusal)) throw error;
    return { ok: false, message: refusal.message };
  }
}

/** "1 row", "2 rows". */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "2 groups created, 1 updated. 1 row ignored. 1 row with errors: ..." from counts of what was done and the rows' problems. */
export function summarise(done: string[], results: RowResults): string {
  const parts = [done.length ? done.join(', ') : 'Nothing changed'];
  if (results.ignored.length) parts.push(`${plural(results.ignored.length, 'row')} ignored`);
  if (results.errors.length) parts.push(`${plural(results.errors.length, 'row')} with errors: ${results.errors.map((e) => e.message).join('; ')}`);
  return `${parts.join('. ')}.`;
}
