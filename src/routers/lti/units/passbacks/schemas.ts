import { z } from 'zod';
import { LTI_PASSBACK_STATES } from '../../../../domain/vocabulary.ts';
import { idField } from '../../../../trpc/fields.ts';

const filters = {
  state: z.enum(LTI_PASSBACK_STATES).optional(),
  task_definition_id: idField().optional(),
};
export const passbacksInput = z.object({ unit_id: idField(), ...filters });

export const passbackOut = z.object({
  id: z.number().int(),
  task_id: z.number().int(),
  project_id: z.number().int(),
  student_id: z.number().int(),
  username: z.string(),
  student_name: z.string(),
  task_definition_id: z.number().int(),
  abbreviation: z.string(),
  lineitem_url: z.string(),
  state: z.enum(LTI_PASSBACK_STATES),
  error: z.string().nullable().describe('Why it failed or was skipped'),
  attempts: z.number().int(),
  score: z.record(z.string(), z.unknown()).nullable().describe('The AGS score last sent'),
  changed_at: z.string().describe('The latest change of the task (the score timestamp)'),
  updated_at: z.string(),
  sent_at: z.string().nullable(),
});

export const requeuedOut = z.object({ queued: z.number().int() });
