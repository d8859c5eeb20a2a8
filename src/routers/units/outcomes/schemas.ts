import { z } from 'zod';
import { MAX_DESCRIPTION } from '../../../operations/units/outcomes/outcome-rows.ts';
import { formInt, formString, idField, preprocess, requiredString } from '../../../trpc/fields.ts';
import { uploadedFile } from '../../../lib/files.ts';

/** An intended learning outcome as the spec's Outcome and the unit's `ilos` show it. */
export const outcomeOut = z.object({
  id: z.number().int(),
  ilo_number: z.number().int(),
  abbreviation: z.string(),
  name: z.string(),
  description: z.string(),
});
export type OutcomeOut = z.infer<typeof outcomeOut>;

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
