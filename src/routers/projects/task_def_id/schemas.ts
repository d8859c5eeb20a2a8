import { z } from 'zod';
import { formBool, formInt, formString, idField, notGivenIfBlank } from '../../../trpc/fields.ts';

/** The two ids of a task's routes: `/api/projects/{id}/task_def_id/{task_definition_id}`. */
export const taskIds = { id: idField(), task_definition_id: idField() };

/** The same, where the route names the project `{project_id}` (comments, extensions). */
export const projectTaskIds = { project_id: idField(), task_definition_id: idField() };

// The web client always sends `grade`, often null.
const given = notGivenIfBlank;

export const updateTaskInput = z.object({
  ...taskIds,
  trigger: given(formString()).describe('The new status, or one of its aliases (e.g. `fix`, `rff`, `demo`)'),
  include_in_portfolio: given(formBool()),
  grade: given(z.union([formInt(), z.string()])).describe(
    '-1 (F), 0 (P), 1 (C), 2 (D), 3 (HD) or the letters; required when a graded task is assessed as complete, discuss or demonstrate',
  ),
  comment: given(formString()).describe(
    "Feedback posted with the change, before its status comment; required for a staff change to discuss, demonstrate, redo, fix and resubmit or feedback exceeded where the unit's `require_feedback_comment` is on",
  ),
  quality_pts: given(formInt()).describe(
    "-1 (not rated) up to the definition's maximum; recorded when a starred task is assessed as complete, discuss or demonstrate",
  ),
});

/** The task after an update: what a trigger, an upload or an overseer test answers. */
export { updatedTaskOut, type UpdatedTaskOut } from '../../../operations/projects/task_def_id/load-updated-task.ts';
