import { z } from 'zod';
import { MODERATION_VERDICTS } from '../../../../schema/marking-oversight.ts';
import { MAX_MODERATION_COMMENT } from '../../../operations/units/moderation_samples/moderation.ts';
import { formInt, formIntList, formString, idField, notGivenIfBlank } from '../../../trpc/fields.ts';

export const unitIdInput = z.object({ unit_id: idField() });
export const sampleIdInput = z.object({ unit_id: idField(), id: idField() });

export const drawSampleInput = z.object({
  unit_id: idField(),
  task_definition_id: idField(),
  percent: formInt()
    .pipe(z.number().int().min(1, { message: 'must be at least 1' }).max(100, { message: 'must be at most 100' }))
    .describe("Of each assessor's completed tasks, rounded up"),
  moderator_ids: formIntList()
    .pipe(z.array(z.number().int().positive()).max(50, { message: 'names too many people (maximum is 50)' }))
    .optional()
    .describe("Staff of the unit who may review this sample besides the unit's convenors"),
});

export const reviewItemInput = z.object({
  unit_id: idField(),
  id: idField(),
  item_id: idField(),
  verdict: z.enum(MODERATION_VERDICTS).describe('agree or disagree with the assessment'),
  comment: notGivenIfBlank(
    formString().pipe(z.string().max(MAX_MODERATION_COMMENT, { message: `is too long (maximum is ${MAX_MODERATION_COMMENT} characters)` })),
  ).describe('Required to disagree'),
});

export const sampleOut = z.object({
  id: z.number().int(),
  unit_id: z.number().int(),
  task_definition_id: z.number().int(),
  percent: z.number().int(),
  moderator_ids: z.array(z.number().int()),
  created_by_id: z.number().int().nullable(),
  created_at: z.string(),
  items: z.number().int().describe('Tasks drawn'),
  reviewed: z.number().int(),
  disagreed: z.number().int(),
});

export const itemOut = z.object({
  id: z.number().int(),
  sample_id: z.number().int(),
  task_id: z.number().int(),
  project_id: z.number().int(),
  task_definition_id: z.number().int(),
  student_name: z.string(),
  assessor_id: z.number().int(),
  assessor_name: z.string(),
  status: z.string().describe("The task's status now"),
  grade: z.number().int().nullable(),
  quality_pts: z.number().int(),
  verdict: z.enum(MODERATION_VERDICTS).nullable().describe('Null until reviewed'),
  comment: z.string().nullable(),
  reviewer_id: z.number().int().nullable(),
  reviewed_at: z.string().nullable(),
});

export const sampleWithItemsOut = sampleOut.extend({ sampled: z.array(itemOut) });

const reportRow = z.object({
  tutor_id: z.number().int(),
  tutor_name: z.string(),
  task_definition_id: z.number().int().nullable().describe('Null in by_tutor (all definitions)'),
  sampled: z.number().int(),
  reviewed: z.number().int(),
  disagreed: z.number().int(),
  rate: z.number().nullable().describe('disagreed / reviewed; null before any review'),
});
export const reportOut = z.object({ by_definition: z.array(reportRow), by_tutor: z.array(reportRow) });
