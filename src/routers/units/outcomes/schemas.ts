import { z } from 'zod';
import type { ILearningOutcome } from '../../../../schema/index.ts';
import type { Em } from '../../../db/orm.ts';
import { db } from '../../../db/kysely.ts';
import { formInt, formString, idField, preprocess, requiredString } from '../../../trpc/fields.ts';
import { uploadedFile } from '../../../trpc/files.ts';

/** An intended learning outcome as the spec's Outcome and the unit's `ilos` show it. */
export const outcomeOut = z.object({
  id: z.number().int(),
  ilo_number: z.number().int(),
  abbreviation: z.string(),
  name: z.string(),
  description: z.string(),
});
export type OutcomeOut = z.infer<typeof outcomeOut>;

export function toOutcome(o: ILearningOutcome): OutcomeOut {
  return { id: o.id, ilo_number: o.iloNumber, abbreviation: o.abbreviation, name: o.name, description: o.description };
}

/** A unit's outcomes in `ilo_number` order: one query, rows already in the wire shape. */
export function loadOutcomes(em: Em, unitId: number): Promise<OutcomeOut[]> {
  return db(em)
    .selectFrom('learning_outcomes')
    .select(['id', 'ilo_number', 'abbreviation', 'name', 'description'])
    .where('unit_id', '=', unitId)
    .orderBy('ilo_number')
    .orderBy('id')
    .execute();
}

/** The outcomes of several units (rollover, listings), grouped by unit id: one query. */
export async function loadOutcomesByUnit(em: Em, unitIds: readonly number[]): Promise<Map<number, OutcomeOut[]>> {
  const byUnit = new Map<number, OutcomeOut[]>(unitIds.map((id) => [id, []]));
  if (unitIds.length === 0) return byUnit;
  const rows = await db(em)
    .selectFrom('learning_outcomes')
    .select(['unit_id', 'id', 'ilo_number', 'abbreviation', 'name', 'description'])
    .where('unit_id', 'in', [...unitIds])
    .orderBy('unit_id')
    .orderBy('ilo_number')
    .orderBy('id')
    .execute();
  for (const { unit_id, ...outcome } of rows) byUnit.get(unit_id)?.push(outcome);
  return byUnit;
}

export const MAX_DESCRIPTION = 4095;
const TOO_LONG = (max: number) => ({ message: `is too long (maximum is ${max} characters)` });

export const outcomeName = () => requiredString().pipe(z.string().max(255, TOO_LONG(255)));
export const outcomeAbbreviation = () => requiredString().pipe(z.string().max(255, TOO_LONG(255)));
export const outcomeDescription = () => formString().pipe(z.string().max(MAX_DESCRIPTION, TOO_LONG(MAX_DESCRIPTION)));

// The web client sends these flat (not wrapped in an `outcome` object), as JSON.
export const createOutcomeInput = z.object({
  unit_id: idField(),
  name: outcomeName(),
  description: outcomeDescription(),
  // Blank or null counts as absent: the outcome is then named after its number.
  abbreviation: preprocess((v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v), outcomeAbbreviation().optional()),
});

export const updateOutcomeInput = z.object({
  unit_id: idField(),
  id: idField(),
  name: outcomeName().optional(),
  description: outcomeDescription().optional(),
  abbreviation: outcomeAbbreviation().optional(),
  ilo_number: formInt()
    .pipe(z.number().int().min(1, { message: 'is less than 1' }))
    .optional(),
});

export const outcomeIdInput = z.object({ unit_id: idField(), id: idField() });

export const unitIdInput = z.object({ unit_id: idField() });

export const uploadOutcomesInput = z.object({ unit_id: idField(), file: uploadedFile() });

const csvResultItem = z.object({ row: z.record(z.string(), z.string()), message: z.string() });
/** What every CSV import answers: each data row lands in exactly one list. */
export const csvImportOut = z.object({ success: z.array(csvResultItem), errors: z.array(csvResultItem), ignored: z.array(csvResultItem) });
export type CsvImportOut = z.infer<typeof csvImportOut>;
