// The week-end trigger (beyond-spec.md §3.4): work staff asked to discuss or demonstrate is
// complete once the week is over. Each task goes through changeTask, as any other assessment.
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { changeTask } from '../tasks/change-task.ts';
import { ROLE } from '../../policy/index.ts';

export async function completeDiscussedTasks(em: Em, projectId: number, staffUserId: number, now: Date): Promise<number[]> {
  const tasks = await db(em)
    .selectFrom('tasks')
    .select('id')
    .where('project_id', '=', projectId)
    .where('status', 'in', ['discuss', 'demonstrate'])
    .orderBy('id')
    .execute();
  for (const task of tasks) {
    await changeTask(em, task.id, { actor: { userId: staffUserId, role: ROLE.tutor }, change: { kind: 'trigger', target: 'complete' } }, now);
  }
  return tasks.map((t) => t.id);
}
