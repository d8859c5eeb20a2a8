import { z } from 'zod';
import { idField } from '../../../trpc/fields.ts';

export { refreshedTaskOut, type RefreshedTaskOut } from '../../../operations/projects/refresh_tasks/refresh-task.ts';

export const refreshTaskInput = z.object({ project_id: idField(), task_definition_id: idField() });
