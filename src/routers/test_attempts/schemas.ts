import { z } from 'zod';
import { formBool, formString, idField, notGivenIfBlank } from '../../trpc/fields.ts';

// `/api/test_attempts/{id}`
export const attemptIdInput = z.object({ id: idField() });

const given = notGivenIfBlank;

export const updateAttemptInput = z.object({
  id: idField(),
  cmi_datamodel: z
    .string()
    .optional()
    .describe("The student's commit: the package's SCORM 2004 data model as a JSON string of element names and values, merged into the attempt's"),
  terminated: given(formBool()).describe('The student ends the attempt (with cmi.exit "suspend", only the session ends and the attempt stays open)'),
  success_status: given(formBool()).describe("Staff override the attempt's result (the newer web client sends it in the query string)"),
  comment: given(formString()).describe("With an override that moves the task: the feedback the unit's enforced feedback asks for"),
});

export { testAttemptOut } from '../../operations/projects/task_def_id/test_attempts/attempt-out.ts';
