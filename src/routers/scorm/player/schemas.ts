import { z } from 'zod';
import { idField } from '../../../trpc/fields.ts';

export const playerPageInput = z.object({ task_def_id: idField() });
export const playerPageOut = z.string();

export const playerContextInput = z.object({ task_def_id: idField(), project_id: idField().optional() });

export const playerContextOut = z.object({
  task_definition: z.object({
    id: z.number().int(),
    abbreviation: z.string(),
    name: z.string(),
    scorm_enabled: z.boolean(),
    has_scorm_data: z.boolean(),
    scorm_version: z.string().nullable(),
    scorm_launch_file: z.string().nullable(),
    scorm_allow_review: z.boolean(),
    scorm_attempt_limit: z.number().int(),
  }),
  unit: z.object({ id: z.number().int(), code: z.string(), name: z.string() }),
  staff: z.boolean(),
  project: z.object({ id: z.number().int(), username: z.string(), student_name: z.string() }).nullable(),
  attempt_limit: z.number().int(),
  attempts_used: z.number().int(),
  attempts_left: z.number().int().nullable(),
});
