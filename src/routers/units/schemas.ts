import { z } from 'zod';
import { alignmentOut as learningAlignmentOut } from './learning_alignments/schemas.ts';
import { formBool, formDay, formInt, formString, idField, requiredString } from '../../trpc/fields.ts';
import { UNIT_ROLE_NAMES } from '../../policy/index.ts';
import { unitSummaryOut } from '../teaching_periods/schemas.ts';
import { tutorialOut } from '../tutorials/schemas.ts';
import { staffMemberOut } from '../unit_roles/schemas.ts';
import { outcomeOut } from './outcomes/schemas.ts';
import { taskDefinitionOut } from './task_definitions/schemas.ts';
import { tutorialStreamOut } from './tutorial_streams/schemas.ts';
import { groupOut, groupSetOut } from './group_sets/schemas.ts';
import { unmetPrerequisiteOut } from '../../operations/units/task_definitions/prerequisites/prerequisite-out.ts';

export { unitSummaryOut };

// ---- The full unit (GET /api/units/{id}, and the answer of create and rollover) ----------------
// Each collection's shape is its owner's (outcomes, streams, staff, tutorials, task definitions,
// alignments).

const id = z.number().int();

/** The unit's own alignments (no task), in the learning-alignment operations' shape. */
export const alignmentOut = learningAlignmentOut.omit({ task_id: true });
/** The spec's full Unit; fields marked optional are shown to staff only (or omitted when null). */
export const unitOut = z.object({
  code: z.string(),
  id,
  name: z.string(),
  my_role: z.enum(UNIT_ROLE_NAMES).nullable(),
  main_convenor_id: id.nullable(),
  main_convenor_user_id: id.nullable(),
  description: z.string(),
  teaching_period_id: id.optional(),
  start_date: z.string(),
  end_date: z.string(),
  portfolio_auto_generation_date: z.string().optional(),
  active: z.boolean(),
  overseer_image_id: id.nullable().optional(),
  assessment_enabled: z.boolean(),
  auto_apply_extension_before_deadline: z.boolean().optional(),
  send_notifications: z.boolean().optional(),
  enable_sync_enrolments: z.boolean().optional(),
  enable_sync_timetable: z.boolean().optional(),
  draft_task_definition_id: id.nullable().optional(),
  extension_weeks_on_resubmit_request: z.number().int().optional(),
  require_feedback_comment: z.boolean().optional(),
  allow_student_extension_requests: z.boolean(),
  allow_student_change_tutorial: z.boolean(),
  // Discuss timeouts (docs/discuss-timeouts.md): shown to everyone, since they are a rule the students meet.
  discuss_timeout_enabled: z.boolean(),
  discuss_timeout_warning_days: z.number().int(),
  discuss_timeout_expire_days: z.number().int(),
  ilos: z.array(outcomeOut),
  tutorial_streams: z.array(tutorialStreamOut),
  staff: z.array(staffMemberOut),
  tutorials: z.array(tutorialOut),
  task_definitions: z.array(taskDefinitionOut),
  task_outcome_alignments: z.array(alignmentOut),
  group_sets: z.array(groupSetOut),
  groups: z.array(groupOut),
});
export type UnitOut = z.infer<typeof unitOut>;

// ---- Inputs -----------------------------------------------------------------------------------

export const unitIdInput = z.object({ id: idField() });

export const listUnitsInput = z.object({ include_in_active: formBool().optional() });

/** `-1` is the original's way to take a unit out of its teaching period. */
const periodId = () =>
  formInt().pipe(
    z
      .number()
      .int()
      .refine((n) => n === -1 || n > 0),
  );

const flags = {
  active: formBool().optional(),
  auto_apply_extension_before_deadline: formBool().optional(),
  send_notifications: formBool().optional(),
  enable_sync_timetable: formBool().optional(),
  enable_sync_enrolments: formBool().optional(),
  allow_student_extension_requests: formBool().optional(),
  allow_student_change_tutorial: formBool().optional(),
  require_feedback_comment: formBool().optional(),
  extension_weeks_on_resubmit_request: formInt().pipe(z.number().int().min(0)).optional(),
  portfolio_auto_generation_date: formDay().optional(),
  // Teaching days; the pair is checked together with the unit's current values (unit-checks.ts).
  discuss_timeout_enabled: formBool().optional(),
  discuss_timeout_warning_days: formInt().optional(),
  discuss_timeout_expire_days: formInt().optional(),
};

// The spec marks active, teaching_period_id and main_convenor_user_id required; the web client
// sends none of them (only code, name and a period or dates), so all three are optional here.
export const createUnitInput = z.object({
  unit: z.object({
    name: requiredString().pipe(z.string().max(255)),
    code: requiredString().pipe(z.string().max(255)),
    description: formString().optional(),
    teaching_period_id: periodId().optional(),
    start_date: formDay().optional(),
    end_date: formDay().optional(),
    main_convenor_user_id: formInt().optional(),
    ...flags,
  }),
});
export type CreateUnitInput = z.infer<typeof createUnitInput>['unit'];

export const updateUnitInput = z.object({
  id: idField(),
  unit: z
    .object({
      name: requiredString().pipe(z.string().max(255)).optional(),
      code: requiredString().pipe(z.string().max(255)).optional(),
      description: formString().optional(),
      teaching_period_id: periodId().optional(),
      start_date: formDay().optional(),
      end_date: formDay().optional(),
      main_convenor_id: idField().optional(),
      assessment_enabled: formBool().optional(),
      draft_task_definition_id: formInt().pipe(z.number().int().positive()).nullable().optional(),
      overseer_image_id: formInt().pipe(z.number().int().positive()).nullable().optional(),
      ...flags,
    })
    .default({}),
});
export type UpdateUnitFields = z.infer<typeof updateUnitInput>['unit'];

/** PUT answers with only the fields it was sent (as the original does). */
export const updatedUnitOut = z.record(z.string(), z.unknown());

export const rolloverUnitInput = z.object({
  id: idField(),
  teaching_period_id: idField().optional(),
  start_date: formDay().optional(),
  end_date: formDay().optional(),
});

/** A row of a tutor's task inbox and feedback list (spec §2 "Task (inbox and feedback lists)"). */
export const inboxTaskOut = z.object({
  id: z.number().int(),
  project_id: z.number().int(),
  task_definition_id: z.number().int(),
  tutorial_id: z.number().int().nullable().describe("The student's tutorial in the definition's stream (or one without a stream)"),
  status: z.string(),
  completion_date: z.string().nullable().describe('YYYY-MM-DD'),
  submission_date: z.string().nullable(),
  times_assessed: z.number().int(),
  grade: z.number().int().nullable(),
  quality_pts: z.number().int().describe('-1 until rated'),
  num_new_comments: z.number().int().describe('Comments other than status changes the caller has not read'),
  similarity_flag: z.boolean().describe('A similarity of the task has been flagged'),
  pinned: z.number().int().describe('1 when the caller pinned the task, else 0'),
  has_extensions: z.number().int().describe('Extension requests waiting for an answer'),
  due_date: z.string().describe('YYYY-MM-DD: the target date plus granted extensions, capped at the deadline'),
  extensions: z.number().int(),
  include_in_portfolio: z.boolean(),
  mentioned: z.number().int().describe("1 when a staff note on the student's project mentions the caller and they have not marked it seen, else 0"),
  escalated: z.number().int().describe('1 when the task has an open escalation and the caller is a convenor who resolves it, else 0'),
  locked: z.boolean().describe('Some prerequisite of the task is unmet: its student may not upload or hand it in (docs/prerequisites.md)'),
  prerequisites_unmet: z.array(unmetPrerequisiteOut),
});
