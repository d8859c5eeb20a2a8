import { z } from 'zod';
import { idField } from '../../trpc/fields.ts';

export const listTasksInput = z.object({ unit_id: idField().describe('The unit whose tasks to list') });

/** Spec §2 "Task (caller's own list)". */
export const listedTaskOut = z.object({
  id: z.number().int(),
  task_definition_id: z.number().int(),
  status: z.string(),
  tutorial_id: z.number().int().nullable().describe("The student's tutorial in the definition's stream (or one without a stream); null when none"),
  tutorial_stream_id: z.number().int().nullable(),
});
export type ListedTaskOut = z.infer<typeof listedTaskOut>;

export const taskIdInput = z.object({ id: idField() });

export const pinnedOut = z.object({ message: z.string() });
