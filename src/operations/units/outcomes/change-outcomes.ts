// A unit's learning outcomes, numbered 1..n without gaps in the order the convenor chose. These
// functions take the entity manager and plain input so rollover and the CSV import use them too.
import { sql } from 'kysely';
import { LearningOutcome, type ILearningOutcome, type IUnit } from '../../../../schema/index.ts';
import type { Em } from '../../../db/orm.ts';
import { db } from '../../../db/kysely.ts';
import { readCsv, missingHeaders, writeCsv, type CsvRow } from '../../../domain/csv.ts';
import { notFound } from '../../../lib/errors.ts';
import type { CsvImportResult as CsvImportOut } from '../../csv/csv-import-result.ts';
import { MAX_DESCRIPTION, loadOutcomes } from './outcome-rows.ts';

/**
 * Serialises changes to one unit's numbering: two outcomes created at once would otherwise both
 * take the same next number. Held until the surrounding transaction ends.
 */
async function lockNumbering(em: Em, unitId: number): Promise<void> {
  await db(em).selectFrom('units').select('id').where('id', '=', unitId).forUpdate().execute();
}

async function lastNumber(em: Em, unitId: number): Promise<number> {
  const row = await db(em)
    .selectFrom('learning_outcomes')
    .select(sql<number>`coalesce(max(ilo_number), 0)::int`.as('last'))
    .where('unit_id', '=', unitId)
    .executeTakeFirstOrThrow();
  return row.last;
}

export async function findOutcome(em: Em, unitId: number, id: number): Promise<ILearningOutcome> {
  const outcome = await em.findOne(LearningOutcome, { id, unit: unitId });
  if (!outcome) throw notFound('Unable to find requested Learning Outcome');
  return outcome as ILearningOutcome;
}

export interface OutcomeFields {
  name: string;
  description: string;
  /** Absent: `ILO<number>`. */
  abbreviation?: string;
  /** Absent: after the last one. */
  iloNumber?: number;
}

/** Adds an outcome after the unit's last one (or at `iloNumber`, moving the later ones down). */
export async function createOutcome(em: Em, unitId: number, fields: OutcomeFields): Promise<ILearningOutcome> {
  await lockNumbering(em, unitId);
  const next = (await lastNumber(em, unitId)) + 1;
  const outcome = em.create(LearningOutcome, {
    unit: unitId,
    iloNumber: next,
    abbreviation: fields.abbreviation ?? `ILO${next}`,
    name: fields.name,
    description: fields.description,
  }) as ILearningOutcome;
  await em.flush();
  if (fields.iloNumber !== undefined && fields.iloNumber !== next) await moveOutcome(em, outcome, fields.iloNumber);
  return outcome;
}

/**
 * Moves an outcome to position `to` (clamped to 1..n) and shifts the ones in between by one, so
 * the numbers stay 1..n: moving 4 to 2 makes the old 2 and 3 into 3 and 4.
 */
export async function moveOutcome(em: Em, outcome: ILearningOutcome, to: number): Promise<void> {
  const unitId = unitIdOf(outcome);
  await lockNumbering(em, unitId);
  const from = outcome.iloNumber;
  const target = Math.min(Math.max(1, to), await lastNumber(em, unitId));
  if (target === from) return;
  const shift = db(em).updateTable('learning_outcomes').where('unit_id', '=', unitId).where('id', '<>', outcome.id);
  if (target < from) {
    await shift.set({ ilo_number: sql`ilo_number + 1` }).where('ilo_number', '>=', target).where('ilo_number', '<', from).execute();
  } else {
    await shift.set({ ilo_number: sql`ilo_number - 1` }).where('ilo_number', '>', from).where('ilo_number', '<=', target).execute();
  }
  // Written directly as well: the entity is flushed later with its other changes.
  await db(em).updateTable('learning_outcomes').set({ ilo_number: target }).where('id', '=', outcome.id).execute();
  outcome.iloNumber = target;
}

export async function updateOutcome(
  em: Em,
  outcome: ILearningOutcome,
  changes: Partial<Pick<OutcomeFields, 'name' | 'description' | 'abbreviation' | 'iloNumber'>>,
): Promise<ILearningOutcome> {
  if (changes.iloNumber !== undefined) await moveOutcome(em, outcome, changes.iloNumber);
  if (changes.name !== undefined) outcome.name = changes.name;
  if (changes.description !== undefined) outcome.description = changes.description;
  if (changes.abbreviation !== undefined) outcome.abbreviation = changes.abbreviation;
  await em.flush();
  return outcome;
}

/** Removes an outcome (and its alignments) and closes the gap: the later ones move up by one. */
export async function deleteOutcome(em: Em, outcome: ILearningOutcome): Promise<void> {
  const unitId = unitIdOf(outcome);
  await lockNumbering(em, unitId);
  const number = outcome.iloNumber;
  em.remove(outcome);
  await em.flush();
  await db(em)
    .updateTable('learning_outcomes')
    .set({ ilo_number: sql`ilo_number - 1` })
    .where('unit_id', '=', unitId)
    .where('ilo_number', '>', number)
    .execute();
}

function unitIdOf(outcome: ILearningOutcome): number {
  return (outcome.unit as unknown as { id: number }).id;
}

// ---- CSV --------------------------------------------------------------------------------------

export const OUTCOME_CSV_COLUMNS = ['unit_code', 'ilo_number', 'abbreviation', 'name', 'description'] as const;

/** The unit's outcomes as a CSV file, in number order. */
export async function outcomesCsv(em: Em, unit: Pick<IUnit, 'id' | 'code'>): Promise<string> {
  const outcomes = await loadOutcomes(em, unit.id);
  return writeCsv(
    OUTCOME_CSV_COLUMNS,
    outcomes.map((o) => [unit.code, o.ilo_number, o.abbreviation, o.name, o.description]),
  );
}

/**
 * Adds the outcomes of a CSV file to a unit. Rows of another unit are ignored; an outcome whose
 * abbreviation the unit already has is left as it is (ignored); new ones are appended in file
 * order. A refused row does not stop the others; without a needed column every row is refused.
 */
export async function importOutcomesCsv(em: Em, unit: Pick<IUnit, 'id' | 'code'>, text: string): Promise<CsvImportOut> {
  const { headers, rows } = await readCsv(text);
  const result: CsvImportOut = { success: [], errors: [], ignored: [] };
  // As the original: a file without a column it needs is read, and each row is an error naming them.
  const missing = missingHeaders(headers, ['unit_code', 'abbreviation', 'name', 'description']);
  if (missing.length > 0) {
    result.errors = rows.map((row) => ({ row, message: `Missing headers: ${missing.join(', ')}` }));
    return result;
  }

  await lockNumbering(em, unit.id);
  const taken = new Set((await loadOutcomes(em, unit.id)).map((o) => o.abbreviation));
  let next = (await lastNumber(em, unit.id)) + 1;

  for (const row of rows) {
    const problem = rowProblem(row, unit.code);
    if (problem?.ignore) {
      result.ignored.push({ row, message: problem.message });
      continue;
    }
    if (problem) {
      result.errors.push({ row, message: problem.message });
      continue;
    }
    if (taken.has(row.abbreviation)) {
      result.ignored.push({ row, message: `Outcome ${row.abbreviation} already exists in ${unit.code}; it was not changed` });
      continue;
    }
    taken.add(row.abbreviation);
    em.create(LearningOutcome, { unit: unit.id, iloNumber: next++, abbreviation: row.abbreviation, name: row.name, description: row.description });
    result.success.push({ row, message: `Outcome ${row.abbreviation} created for unit` });
  }
  await em.flush();
  return result;
}

function rowProblem(row: CsvRow, unitCode: string): { message: string; ignore?: boolean } | undefined {
  if (row.unit_code !== unitCode) return { ignore: true, message: `Invalid unit code. ${row.unit_code} does not match ${unitCode}` };
  for (const column of ['abbreviation', 'name', 'description'] as const) {
    if (row[column] === '') return { message: `Missing ${column}` };
  }
  if (row.abbreviation.length > 255) return { message: 'Abbreviation is too long (maximum is 255 characters)' };
  if (row.name.length > 255) return { message: 'Name is too long (maximum is 255 characters)' };
  if (row.description.length > MAX_DESCRIPTION) return { message: `Description is too long (maximum is ${MAX_DESCRIPTION} characters)` };
  return undefined;
}
