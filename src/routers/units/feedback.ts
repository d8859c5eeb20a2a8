import { z } from 'zod';
import { route } from '../../trpc/route.ts';
import { canInUnit } from '../../policy/index.ts';
import { unitQuery } from '../../trpc/scopes/index.ts';
import { inboxRows } from '../../operations/units/inbox-rows.ts';
import { inboxTaskOut, unitIdInput } from './schemas.ts';

export const awaitingFeedback = unitQuery(unitIdInput, { action: 'provide_feedback', refused: 'Not authorised to provide feedback for this unit', field: 'id' })
  .meta(
    route('GET', '/api/units/{id}/feedback', 'Units', 'Tasks waiting on the student after feedback', {
      description:
        "Tutor or Convenor of the unit. The enrolled students' tasks in discuss, demonstrate, redo or fix and resubmit, by task " +
        "definition, in the inbox's row shape (with the caller's unread comments and pin). One SQL statement for the rows, whatever their " +
        'number.',
    }),
  )
  .output(z.array(inboxTaskOut))
  .query(({ ctx }) => inboxRows(ctx.em, ctx.unit.id, { id: ctx.user.id, seesEscalations: canInUnit(ctx.unitRole, 'oversee_marking') }, 'feedback'));
