// GET /api/projects/{project_id}/refresh_tasks/{task_definition_id}: a task's status and due day, for a quick refresh.
import { z } from 'zod';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { dueDay } from '../../../domain/task-rules.ts';

/** Spec §2 "Task refresh result". */
export const refreshedTaskOut = z.object({
  task_definition_id: z.number().int(),
  status: z.string(),
  due_date: z.string().describe('The due day (target date plus granted extensions, never past the deadline) as a timestamp at its start, UTC'),
  extensions: z.number().int(),
});
export type RefreshedTaskOut = z.infer<typeof refreshedTaskOut>;

/** The task's status, due day and extensions; null while the student has no task for the definition. */
export async function refreshTask(em: Em, taskId: number | null): Promise<RefreshedTaskOut | null> {
  if (taskId === null) return null;
  const task = await db(em)
    .selectFrom('tasks as t')
    .innerJoin('task_definitions as d', 'd.id', 't.task_definition_id')
    .innerJoin('units as u', 'u.id', 'd.unit_id')
    .select(['t.task_definition_id', 't.status', 't.extensions', 'd.target_date', 'd.due_date', 'u.end_date'])
    .where('t.id', '=', taskId)
    .executeTakeFirstOrThrow();
  const due = dueDay({ targetDate: String(task.target_date).slice(0, 10), deadline: String(task.due_date ?? task.end_date).slice(0, 10) }, task.extensions);
  return { task_definition_id: task.task_definition_id, status: task.status, due_date: `${due}T00:00:00.000Z`, extensions: task.extensions };
}
