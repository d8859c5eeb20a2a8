import { z } from 'zod';
import { RUBRIC_MAPPINGS } from '../../../../domain/rubric-scores.ts';
import { formBool, idField } from '../../../../trpc/fields.ts';

// ---- Input --------------------------------------------------------------------------------------

const title = z.string().max(255, { message: 'is too long (maximum is 255 characters)' });
const description = z.string().max(4000, { message: 'is too long (maximum is 4000 characters)' }).optional();
const fraction = z.number().min(0).max(1);

const levelIn = z.object({ id: z.number().int().positive().optional(), title, description, points: z.number(), position: z.number().int().min(0).max(1000) });
const criterionIn = z.object({
  id: z.number().int().positive().optional(),
  title,
  description,
  position: z.number().int().min(0).max(1000),
  levels: z.array(levelIn).max(20),
});

export const rubricPath = z.object({ unit_id: idField(), task_def_id: idField() });

export const saveRubricInput = rubricPath.extend({
  mapping: z.enum(RUBRIC_MAPPINGS).default('none'),
  thresholds: z.object({ pass: fraction, credit: fraction, distinction: fraction, high_distinction: fraction }).nullable().optional(),
  criteria: z.array(criterionIn).max(50),
});

export const deleteRubricInput = rubricPath.extend({
  force: formBool()
    .optional()
    .default(false)
    .meta({ description: 'Delete the marks made with the rubric too (the tasks keep their grades); without it a marked rubric is refused with 400.' }),
});

export const updateLevelInput = rubricPath.extend({
  level_id: idField(),
  title: title.optional(),
  description,
  points: z.number().optional(),
});

// ---- Output -------------------------------------------------------------------------------------

const levelOut = z.object({ id: z.number(), title: z.string(), description: z.string(), points: z.number(), position: z.number() });
const criterionOut = z.object({ id: z.number(), title: z.string(), description: z.string(), position: z.number(), levels: z.array(levelOut) });

export const rubricOut = z.object({
  id: z.number(),
  task_definition_id: z.number(),
  mapping: z.enum(RUBRIC_MAPPINGS),
  thresholds: z.object({ pass: z.number(), credit: z.number(), distinction: z.number(), high_distinction: z.number() }).nullable(),
  max_score: z.number(),
  criteria: z.array(criterionOut),
});

export const savedRubricOut = rubricOut.extend({
  rescore: z.object({ rescored: z.number(), tasks_updated: z.number() }).meta({ description: 'Marks re-scored by this change, and tasks written.' }),
});

export const deletedRubricOut = z.object({
  marks_deleted: z.number().meta({ description: 'Marks deleted with the rubric; their tasks keep their grades and quality points.' }),
});
