import { z } from 'zod';
import { OUTPUT_COMPARISONS, RUN_COMMAND_MAX, STEP_NAME_MAX, STEP_TYPES } from '../../../../domain/overseer-steps.ts';
import { TASK_STATUSES } from '../../../../domain/vocabulary.ts';
import { formBool, formInt, formString, idField, preprocess, requiredString } from '../../../../trpc/fields.ts';

// ---- Input --------------------------------------------------------------------------------------

const TOO_LONG = (max: number) => ({ message: `is too long (maximum is ${max} characters)` });

/** '' (an empty form field), "null" and null all mean "none"; absent means "unchanged" (or the default). */
const noneable = <T extends z.ZodType>(schema: T) => preprocess((v) => (v === '' || v === 'null' ? null : v), schema.nullable().optional());

const text = () => formString().pipe(z.string().max(10_000, TOO_LONG(10_000)));

const fields = {
  name: requiredString().pipe(z.string().max(STEP_NAME_MAX, TOO_LONG(STEP_NAME_MAX))),
  display_name: noneable(formString().pipe(z.string().max(STEP_NAME_MAX, TOO_LONG(STEP_NAME_MAX)))),
  description: noneable(text()),
  display_description: noneable(text()),
  sort_order: formInt().pipe(z.number().int().min(0).max(100_000)).optional(),
  enabled: formBool().optional(),
  step_type: z.enum(STEP_TYPES).optional(),
  run_command: requiredString().pipe(z.string().max(RUN_COMMAND_MAX, TOO_LONG(RUN_COMMAND_MAX))),
  timeout_ms: formInt().optional().meta({ description: 'The step’s own time limit, 1..600000 ms (default 30000).' }),
  stdin_input_file: noneable(formString()).meta({ description: 'A file of the sandbox (resources or submission) fed to the command’s stdin.' }),
  expected_output_file: noneable(formString()).meta({ description: 'A file of the sandbox the command’s stdout is compared with.' }),
  partial_output_diff: formBool().optional().meta({ description: 'The expected output need only occur in stdout.' }),
  output_comparison: z.enum(OUTPUT_COMPARISONS).optional().meta({ description: '`exact` (default) or `whitespace` (see docs/assessment-steps.md).' }),
  feedback_message: noneable(text()),
  status_on_success: noneable(z.enum(TASK_STATUSES)),
  status_on_failure: noneable(z.enum(TASK_STATUSES)),
  halt_on_success: formBool().optional(),
  halt_on_failure: formBool().optional(),
  show_expected_output: formBool().optional(),
  show_stdin: formBool().optional(),
  show_stdout: formBool().optional(),
};

export const stepsPath = z.object({ unit_id: idField(), task_def_id: idField() });

export const createStepInput = stepsPath.extend({ overseer_step: z.object(fields) });

export const updateStepInput = stepsPath.extend({
  id: idField(),
  overseer_step: z.object({ ...fields, name: fields.name.optional(), run_command: fields.run_command.optional() }),
});

export const deleteStepInput = z.object({ id: idField() });

// ---- Output -------------------------------------------------------------------------------------

const statusOut = z.enum(TASK_STATUSES).nullable();

export const stepOut = z.object({
  id: z.number(),
  task_definition_id: z.number(),
  name: z.string(),
  display_name: z.string().nullable(),
  description: z.string().nullable(),
  display_description: z.string().nullable(),
  sort_order: z.number(),
  enabled: z.boolean(),
  step_type: z.enum(STEP_TYPES),
  run_command: z.string(),
  timeout_ms: z.number(),
  stdin_input_file: z.string().nullable(),
  expected_output_file: z.string().nullable(),
  partial_output_diff: z.boolean(),
  output_comparison: z.enum(OUTPUT_COMPARISONS),
  feedback_message: z.string().nullable(),
  status_on_success: statusOut,
  status_on_failure: statusOut,
  halt_on_success: z.boolean(),
  halt_on_failure: z.boolean(),
  show_expected_output: z.boolean(),
  show_stdin: z.boolean(),
  show_stdout: z.boolean(),
});

export const deletedStepOut = z.object({ id: z.number(), deleted: z.literal(true) });
