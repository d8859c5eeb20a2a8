import { z } from 'zod';
import { formInt, formString, idField, preprocess } from '../../../trpc/fields.ts';
import { uploadedFile } from '../../../lib/files.ts';

import { MAX_RATING, MIN_RATING } from '../../../operations/units/learning_alignments/alignment-row.ts';

export const RATING_MESSAGE = `is not a rating from ${MIN_RATING} to ${MAX_RATING}`;

/** The spec's Learning alignment; `task_id` only on a student's own (project) alignment. */
export const alignmentOut = z.object({
  id: z.number().int(),
  description: z.string().nullable(),
  rating: z.number().int(),
  learning_outcome_id: z.number().int(),
  task_definition_id: z.number().int(),
  task_id: z.number().int().optional(),
});

const rating = () => formInt().pipe(z.number().int().min(MIN_RATING, { message: RATING_MESSAGE }).max(MAX_RATING, { message: RATING_MESSAGE }));
// The web client sends `null` for an id it does not have (a unit alignment's task_id).
const optionalId = () => preprocess((v) => (v === null || v === '' ? undefined : v), idField().optional());
const description = () =>
  preprocess((v) => (v === null ? '' : v), formString().pipe(z.string().max(4095, { message: 'is too long (maximum is 4095 characters)' })));

export const unitIdInput = z.object({ unit_id: idField() });

// The spec marks project_id required (`Q: project_id*`); the unit's own alignments are in the unit detail and the CSV.
export const listAlignmentsInput = z.object({ unit_id: idField(), project_id: idField() });

/** The CSV: a project's alignments with `project_id`, the unit's own without. */
export const alignmentsCsvInput = z.object({ unit_id: idField(), project_id: optionalId() });

// The spec's form, and the web client's flat JSON: no project_id, but the task's id when a
// student aligns their own task.
export const createAlignmentInput = z.object({
  unit_id: idField(),
  learning_outcome_id: idField(),
  task_definition_id: idField(),
  project_id: optionalId(),
  task_id: optionalId(),
  description: description(),
  rating: rating(),
});

export const updateAlignmentInput = z.object({
  unit_id: idField(),
  id: idField(),
  description: description().optional(),
  rating: rating().optional(),
});

export const alignmentIdInput = z.object({ unit_id: idField(), id: idField() });

export const uploadAlignmentsInput = z.object({ unit_id: idField(), project_id: optionalId(), file: uploadedFile() });

const statisticOut = z.object({ median: z.number(), lower: z.number(), upper: z.number(), min: z.number(), max: z.number() });
export const classStatsOut = z.record(z.string(), statisticOut);
export const classDetailsOut = z.record(z.string(), classStatsOut);
