// A marker's pins: tasks they keep at the head of their inbox (POST and DELETE /api/tasks/{id}/pin).
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { notFound } from '../../lib/errors.ts';

/** The task the path names, and its unit (404 when unknown): what the unit scope checks against. */
export async function taskOfUnit(em: Em, id: number) {
  const task = await db(em)
    .selectFrom('tasks as t')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .select(['t.id', 'p.unit_id'])
    .where('t.id', '=', id)
    .executeTakeFirst();
  if (!task) throw notFound('Unable to find requested Task');
  return { record: task, unitId: task.unit_id };
}

/** Pins the task for the user; pinning a pinned task changes nothing. */
export async function pinTask(em: Em, taskId: number, userId: number, now: Date): Promise<{ message: string }> {
  await db(em)
    .insertInto('task_pins')
    .values({ task_id: taskId, user_id: userId, created_at: now.toISOString() })
    .onConflict((oc) => oc.columns(['task_id', 'user_id']).doNothing())
    .execute();
  return { message: 'Task pinned' };
}

/** Removes the user's own pin (404 when they have none). */
export async function unpinTask(em: Em, taskId: number, userId: number): Promise<null> {
  const removed = await db(em).deleteFrom('task_pins').where('task_id', '=', taskId).where('user_id', '=', userId).executeTakeFirst();
  if (removed.numDeletedRows === 0n) throw notFound('Unable to find requested Task pin');
  return null;
}
