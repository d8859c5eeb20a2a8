import { z } from 'zod';
import { MAX_DESCRIPTION } from '../../../domain/task-definitions.ts';
import { SCORM_TRUST, TASK_STATUSES } from '../../../domain/vocabulary.ts';
import { formBool, formDay, formInt, formString, idField, preprocess, requiredString } from '../../../trpc/fields.ts';
import { uploadedFile } from '../../../lib/files.ts';

// The output shapes are written beside the operations that produce them.
export { taskDefinitionOut, type TaskDefinitionOut } from '../../../operations/units/task_definitions/load-task-definitions.ts';
export { definitionTaskOut, type DefinitionTaskOut } from '../../../operations/units/task_definitions/tasks-of-definition.ts';

// ---- Input --------------------------------------------------------------------------------------

const TOO_LONG = (max: number) => ({ message: `is too long (maximum is ${max} characters)` });

/** '' (an empty form field) and null both mean "none"; absent means "unchanged". */
const noneable = <T extends z.ZodType>(schema: T) => preprocess((v) => (v === '' ? null : v), schema.nullable().optional());

/** Weighting may arrive as "4.0" (how the original showed it); it is a whole number. */
const weighting = () =>
  preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v),
    z.number().int().min(0, { message: 'is negative' }),
  );

/** upload_requirements and plagiarism_checks: JSON text as the web client sends it, or the array itself. */
const jsonList = () =>
  z
    .union([z.string(), z.array(z.unknown())])
    .nullable()
    .optional();

/** A choice of `values`, named in the message when it is none of them (messages start "is ": describeZodError). */
const oneOf = <T extends readonly [string, ...string[]]>(values: T) => formString().pipe(z.enum(values, { message: `is not one of ${values.join(', ')}` }));

/** The online-test settings (docs/online-tests.md, "Settings"): absent stays as it is, on create the defaults. */
const scormFields = {
  scorm_enabled: formBool().optional(),
  scorm_allow_review: formBool().optional(),
  scorm_bypass_test: formBool().optional(),
  scorm_time_delay_enabled: formBool().optional(),
  scorm_attempt_limit: formInt()
    .pipe(z.number().int().min(0, { message: 'is negative (0 means unlimited)' }))
    .optional(),
  scorm_trust: oneOf(SCORM_TRUST).optional(),
  /** '' or null: a pass changes no status. */
  scorm_pass_status: noneable(oneOf(TASK_STATUSES)),
};

const fields = {
  name: requiredString().pipe(z.string().max(255, TOO_LONG(255))),
  abbreviation: requiredString().pipe(z.string().max(255, TOO_LONG(255))),
  description: formString().pipe(z.string().max(MAX_DESCRIPTION, TOO_LONG(MAX_DESCRIPTION))),
  weighting: weighting(),
  target_grade: formInt(),
  start_date: formDay(),
  target_date: formDay(),
  due_date: noneable(formDay()),
  restrict_status_updates: formBool(),
  upload_requirements: jsonList(),
  plagiarism_checks: jsonList(),
  plagiarism_warn_pct: formInt(),
  is_graded: formBool(),
  max_quality_pts: formInt(),
  group_set_id: noneable(formInt()),
  tutorial_stream_abbr: noneable(formString()),
  assessment_enabled: formBool().optional(),
  overseer_image_id: noneable(formInt()),
  /** Staff may complete a task only once it was in discuss or demonstrate since its last submission (docs/discussion-prompts.md). */
  requires_discussion: formBool().optional(),
  ...scormFields,
};

// The web client also sends id, has_* and moss_language inside task_def: unknown keys are dropped.
export const createTaskDefinitionInput = z.object({
  unit_id: idField(),
  task_def: z.object(fields),
});
export type CreateTaskDefinitionInput = z.infer<typeof createTaskDefinitionInput>;

export const updateTaskDefinitionInput = z.object({
  unit_id: idField(),
  id: idField(),
  task_def: z
    .object({
      ...fields,
      name: fields.name.optional(),
      abbreviation: fields.abbreviation.optional(),
      description: fields.description.optional(),
      weighting: fields.weighting.optional(),
      target_grade: fields.target_grade.optional(),
      start_date: fields.start_date.optional(),
      target_date: fields.target_date.optional(),
      restrict_status_updates: fields.restrict_status_updates.optional(),
      plagiarism_warn_pct: fields.plagiarism_warn_pct.optional(),
      is_graded: fields.is_graded.optional(),
      max_quality_pts: fields.max_quality_pts.optional(),
    })
    .default({}),
});
export type UpdateTaskDefinitionInput = z.infer<typeof updateTaskDefinitionInput>;

export const taskDefinitionIdInput = z.object({ unit_id: idField(), id: idField() });

export const definitionTasksInput = z.object({ unit_id: idField(), task_def_id: idField() });

/** .../{task_def_id}/task_sheet, task_resources and task_assessment_resources: GET and DELETE. */
export const definitionFileInput = z.object({ unit_id: idField(), task_def_id: idField() });

/** POST of any of them: multipart field `file`. */
export const definitionFileUploadInput = z.object({ unit_id: idField(), task_def_id: idField(), file: uploadedFile() });
