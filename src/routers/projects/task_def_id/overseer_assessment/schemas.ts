import { z } from 'zod';
import { STEP_OUTCOMES } from '../../../../domain/overseer-steps.ts';
import { idField } from '../../../../trpc/fields.ts';
import { taskIds } from '../schemas.ts';

export const triggerAssessmentInput = z.object({ ...taskIds, oa_id: idField() });

export const triggeredOut = z.object({ message: z.string() });

export const assessmentStepsInput = z.object({ ...taskIds, oa_id: idField() });
export const assessmentStepInput = assessmentStepsInput.extend({ result_id: idField() });

const text = (what: string) =>
  z
    .string()
    .nullable()
    .meta({ description: `${what}: its first 64 KiB; null when hidden from the viewer or not recorded.` });
const sha = (what: string) =>
  z
    .string()
    .nullable()
    .meta({ description: `sha256 (hex) of the whole ${what}; null when hidden or not recorded.` });

export const stepResultOut = z.object({
  id: z.number(),
  step_id: z.number().nullable().meta({ description: 'The step, or null once it was deleted.' }),
  position: z.number(),
  name: z.string(),
  display_name: z.string().nullable(),
  outcome: z.enum(STEP_OUTCOMES),
  pass: z.boolean(),
  exit_status: z.number().nullable(),
  duration_ms: z.number().nullable(),
  feedback_message: z.string().nullable(),
  stdout: text('stdout'),
  stdout_sha256: sha('stdout'),
  stdin: text('The stdin file'),
  stdin_sha256: sha('stdin file'),
  expected_output: text('The expected output'),
  expected_output_sha256: sha('expected output'),
  show_stdout: z.boolean(),
  show_stdin: z.boolean(),
  show_expected_output: z.boolean(),
});

export const assessmentStepsOut = z.object({
  assessment_id: z.number(),
  status: z.string(),
  result_task_status: z.string().nullable(),
  submission_timestamp: z.string(),
  steps: z.array(stepResultOut),
});
