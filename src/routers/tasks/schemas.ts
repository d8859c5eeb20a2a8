import { z } from 'zod';
import { idField } from '../../trpc/fields.ts';

export const listTasksInput = z.object({ unit_id: idField().describe('The unit whose tasks to list') });

export { listedTaskOut, type ListedTaskOut } from '../../operations/tasks/list-tasks.ts';

export const taskIdInput = z.object({ id: idField() });

export const pinnedOut = z.object({ message: z.string() });
