import { route } from '../../trpc/route.ts';
import { z } from 'zod';
import { pinTask as pin, taskOfUnit, unpinTask as unpin } from '../../operations/tasks/pin-task.ts';
import { unitMutation } from '../../trpc/scopes/index.ts';
import { pinnedOut, taskIdInput } from './schemas.ts';

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
  .mutation(({ ctx, input }) => pin(ctx.em, input.id, ctx.user.id, ctx.clock.now()));

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
  .mutation(({ ctx, input }) => unpin(ctx.em, input.id, ctx.user.id));
