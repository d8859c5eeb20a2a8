import { z } from 'zod';
import { canInUnit, roleInUnit } from '../../../policy/index.ts';
import { serveLive } from '../../../trpc/live.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';

const input = z.object({
  id: z.coerce.number().int(),
  /** Sent back by the client when it reconnects (tRPC's httpSubscriptionLink does so itself). */
  lastEventId: z.string().nullish(),
});

/**
 * Live changes to a unit's task inbox (docs/marking/live-updates.md): a task's status changing
 * (entering or leaving the inbox), a comment, a PDF ready, an assessment result. Ids only: the
 * client re-reads the inbox (GET /api/units/{id}/tasks/inbox). The same staff as the inbox.
 */
export const inboxChanges = unitQuery(input, {
  action: 'provide_feedback',
  refused: 'Not authorised to provide feedback for this unit',
  field: 'id',
}).subscription(({ ctx, input, signal }) =>
  serveLive({
    ctx,
    filter: { unitId: ctx.unit.id },
    lastEventId: input.lastEventId,
    signal,
    allowed: async (em, user) => canInUnit(await roleInUnit(em, user, ctx.unit.id), 'provide_feedback'),
  }),
);
