import { z } from 'zod';
import { formBool } from '../../../../trpc/fields.ts';
import { projectTaskIds } from '../schemas.ts';

// `/api/projects/{project_id}/task_def_id/{task_definition_id}/test_attempts`
export const attemptsInput = z.object(projectTaskIds);

export const latestAttemptInput = z.object({
  ...projectTaskIds,
  completed: formBool().default(false).describe('The newest completed attempt (cmi.completion_status "completed") rather than the newest'),
});

export { testAttemptOut } from '../../../../operations/projects/task_def_id/test_attempts/attempt-out.ts';
