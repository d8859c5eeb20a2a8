import { z } from 'zod';
import { formBool, formInt, formString, idField, requiredString } from '../../trpc/fields.ts';
import { projectTaskOut, type ProjectTaskOut } from '../../operations/projects/load-project-tasks.ts';
import { unitBriefOut } from '../unit_roles/schemas.ts';

/** A project as its student sees it in their list of enrolments. */
export const projectListedOut = z.object({
  id: z.number().int(),
  campus_id: z.number().int().nullable(),
  user_id: z.number().int(),
  unit: unitBriefOut,
  target_grade: z.number().int(),
  portfolio_available: z.boolean(),
});
export type ProjectListedOut = z.infer<typeof projectListedOut>;

export const listProjectsInput = z.object({
  include_inactive: formBool().optional(),
});

// ---- POST /api/projects ----------------------------------------------------------------------

export const enrolInput = z.object({
  unit_id: idField(),
  /** Matched against username, then student id, then email. */
  student_num: requiredString(),
  /** The campus to study at; -1 or null for none. */
  campus_id: formInt().nullable(),
});

// ---- GET /api/projects/{id} ------------------------------------------------------------------

export const projectIdInput = z.object({ id: idField() });

export { projectTaskOut, type ProjectTaskOut };

export const groupOut = z.object({
  id: z.number().int(),
  name: z.string(),
  tutorial_id: z.number().int(),
  group_set_id: z.number().int(),
  student_count: z.number().int(),
  capacity_adjustment: z.number().int(),
  locked: z.boolean(),
});

/** A project as its student (or their tutor) opens it: the student's dashboard. */
export const projectDetailOut = z.object({
  id: z.number().int(),
  campus_id: z.number().int().nullable(),
  user_id: z.number().int(),
  unit: unitBriefOut,
  unit_id: z.number().int(),
  target_grade: z.number().int(),
  submitted_grade: z.number().int().nullable(),
  portfolio_files: z.array(z.object({ kind: z.string(), name: z.string(), idx: z.number().int() })),
  compile_portfolio: z.boolean(),
  portfolio_available: z.boolean(),
  uses_draft_learning_summary: z.boolean(),
  tasks: z.array(projectTaskOut),
  tutorial_enrolments: z.array(z.object({ project_id: z.number().int(), tutorial_id: z.number().int() })),
  groups: z.array(groupOut),
  task_outcome_alignments: z.array(
    z.object({
      id: z.number().int(),
      description: z.string().nullable(),
      rating: z.number().int(),
      learning_outcome_id: z.number().int(),
      task_definition_id: z.number().int(),
      task_id: z.number().int(),
    }),
  ),
});
export type ProjectDetailOut = z.infer<typeof projectDetailOut>;

// ---- PUT /api/projects/{id} ------------------------------------------------------------------

/** Only the first field present, in this order, is applied (as the original does). */
export const updateProjectInput = z.object({
  id: idField(),
  trigger: formString().optional().describe('Only `trigger_week_end`: every discuss or demonstrate task of the project becomes complete (staff)'),
  campus_id: formInt().nullable().optional(),
  enrolled: formBool().optional(),
  target_grade: formInt().pipe(z.number().int().min(0).max(3)).optional(),
  submitted_grade: formInt().pipe(z.number().int().min(0).max(3)).optional(),
  grade: formInt().optional(),
  // The grade the caller last saw; null is the 0 of an ungraded project (the web client read it as null before grades defaulted to 0).
  old_grade: formInt().nullable().optional(),
  grade_rationale: formString().pipe(z.string().max(4095)).optional(),
  compile_portfolio: formBool().optional(),
});
export type UpdateProjectInput = z.output<typeof updateProjectInput>;

export { projectUpdatedOut, type ProjectUpdatedOut } from '../../operations/projects/update-project.ts';
