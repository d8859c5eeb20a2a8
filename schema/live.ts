import { defineEntity, p } from '@mikro-orm/core';

/**
 * The last few minutes of live events (src/live, docs/marking/live-updates.md): one row per task
 * event, written in the transaction that made the change, so that a client reconnecting with the
 * last event id it saw gets what it missed from any process. Ids only: a receiver re-reads what
 * the event names through the usual, authorised procedures. Pruned by age (LIVE_EVENTS_KEEP_SECONDS).
 */
export const LiveEvent = defineEntity({
  name: 'LiveEvent',
  tableName: 'live_events',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    unitId: p.integer(),
    projectId: p.integer(),
    taskId: p.integer(),
    kind: p.string().length(20),
    createdAt: p.datetime(),
  },
});
