import { z } from 'zod';
import { route } from '../../../trpc/route.ts';
import { canInUnit } from '../../../policy/index.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { inboxRows } from '../../../operations/units/inbox-rows.ts';
import { inboxTaskOut, unitIdInput } from './schemas.ts';

export const taskInbox = unitQuery(unitIdInput, { action: 'provide_feedback', refused: 'Not authorised to provide feedback for this unit', field: 'id' })
  .meta(
    route('GET', '/api/units/{id}/tasks/inbox', 'Units', "A tutor's task inbox", {
      description:
        "Tutor or Convenor of the unit. Enrolled students' tasks waiting on staff, pinned by the caller, with comments the caller has " +
        'not read, mentioned to the caller in a staff note, or (for a convenor) escalated; pinned and longest waiting first. ' +
        'See docs/api/units.md and docs/marking/notes-moderation-escalation.md.',
    }),
  )
  .output(z.array(inboxTaskOut))
  .query(({ ctx }) => inboxRows(ctx.em, ctx.unit.id, { id: ctx.user.id, seesEscalations: canInUnit(ctx.unitRole, 'oversee_marking') }, 'inbox'));
