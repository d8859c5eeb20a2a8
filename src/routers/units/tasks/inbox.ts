import { z } from 'zod';
import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { inboxRows } from '../../../operations/units/inbox-rows.ts';
import { inboxTaskOut, unitIdInput } from './schemas.ts';

export const taskInbox = unitQuery(unitIdInput, { action: 'provide_feedback', refused: 'Not authorised to provide feedback for this unit', field: 'id' })
  .meta(
    route('GET', '/api/units/{id}/tasks/inbox', 'Units', "A tutor's task inbox", {
      description:
        "Tutor or Convenor of the unit. The enrolled students' tasks that are ready for feedback or need help, that the caller pinned, or that have comments the caller has not read (status changes do not count). Pinned first, then the longest waiting (by submission, then by latest comment), then by task definition. Every tutorial's tasks: the web client filters. One SQL statement for the rows, whatever their number.",
    }),
  )
  .output(z.array(inboxTaskOut))
  .query(({ ctx }) => inboxRows(ctx.em, ctx.unit.id, ctx.user.id, 'inbox'));
