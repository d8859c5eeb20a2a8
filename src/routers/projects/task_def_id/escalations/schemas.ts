import { z } from 'zod';
import { MAX_REASON_LENGTH } from '../../../../operations/projects/task_def_id/escalations/escalations.ts';
import { formString, idField, notGivenIfBlank, requiredString } from '../../../../trpc/fields.ts';
import { projectTaskIds } from '../schemas.ts';

const tooLong = { message: `is too long (maximum is ${MAX_REASON_LENGTH} characters)` };

export const taskInput = z.object({ ...projectTaskIds });

export const escalateInput = z.object({
  ...projectTaskIds,
  reason: requiredString().pipe(z.string().max(MAX_REASON_LENGTH, tooLong)).describe('Why the convenor should look at this task'),
});

export const resolveInput = z.object({
  ...projectTaskIds,
  id: idField(),
  note: notGivenIfBlank(formString().pipe(z.string().max(MAX_REASON_LENGTH, tooLong))).describe('What was decided'),
});

export const escalationOut = z.object({
  id: z.number().int(),
  task_id: z.number().int(),
  project_id: z.number().int(),
  task_definition_id: z.number().int(),
  reason: z.string(),
  escalated_by_id: z.number().int(),
  escalated_by_name: z.string(),
  created_at: z.string(),
  resolved_at: z.string().nullable().describe('Null while open'),
  resolved_by_id: z.number().int().nullable(),
  resolution_note: z.string().nullable(),
});
