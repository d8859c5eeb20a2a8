import { route } from '../../trpc/route.ts';
import { z } from 'zod';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { notFound } from '../../trpc/errors.ts';
import { unitMutation } from '../../trpc/scopes/index.ts';
import { pinnedOut, taskIdInput } from './schemas.ts';

/** The task the path names, and its unit (404 when unknown). */
async function taskOfUnit(em: Em, id: number) {
  const task = await db(em)
    .selectFrom('tasks as t')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .select(['t.id', 'p.unit_id'])
    .where('t.id', '=', id)
    .executeTakeFirst();
  if (!task) throw notFound('Unable to find requested Task');
  return { record: task, unitId: task.unit_id };
}

// Pins are the marking staff's own inbox marks: only staff of the task's unit keep them.
export const pinTask = unitMutation(taskIdInput, { unitOf: taskOfUnit, action: 'provide_feedback', refused: 'Not authorised to pin task' })
  .meta(
    route('POST', '/api/tasks/{id}/pin', 'Tasks and similarities', "Pin a task to the caller's inbox", {
      description:
        "Staff of the task's unit (tutors and convenors; an Admin who is not staff is refused). Pinned tasks head the " +
        "caller's inbox. Pinning a pinned task changes nothing.",
    }),
  )
  .output(pinnedOut)
  .mutation(async ({ ctx, input }) => {
    await db(ctx.em)
      .insertInto('task_pins')
      .values({ task_id: input.id, user_id: ctx.user.id, created_at: ctx.clock.now().toISOString() })
      .onConflict((oc) => oc.columns(['task_id', 'user_id']).doNothing())
      .execute();
    return { message: 'Task pinned' };
  });

export const unpinTask = unitMutation(taskIdInput, { unitOf: taskOfUnit, action: 'provide_feedback', refused: 'Not authorised to pin task' })
  .meta(
    route('DELETE', '/api/tasks/{id}/pin', 'Tasks and similarities', "Unpin a task from the caller's inbox", {
      description:
        "Staff of the task's unit. Removes only the caller's pin; a task the caller has not pinned is 404 \"Unable to " +
        'find requested Task pin", as in the original.',
      rest: { status: 204 },
    }),
  )
  .output(z.null())
  .mutation(async ({ ctx, input }) => {
    const removed = await db(ctx.em).deleteFrom('task_pins').where('task_id', '=', input.id).where('user_id', '=', ctx.user.id).executeTakeFirst();
    if (removed.numDeletedRows === 0n) throw notFound('Unable to find requested Task pin');
    return null;
  });
