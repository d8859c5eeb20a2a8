import { z } from 'zod';
import { formBool, formInt, formString, idField, requiredString } from '../../trpc/fields.ts';
import { projectTaskOut, type ProjectTaskOut } from '../../operations/projects/load-project-tasks.ts';

export { projectListedOut, type ProjectListedOut } from '../../operations/projects/list-projects.ts';

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

export { groupOut, projectDetailOut, type ProjectDetailOut } from '../../operations/projects/load-project-detail.ts';

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
