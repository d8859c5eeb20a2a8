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
    /** The writing transaction (pg_current_xact_id(), set by the column's default; read as text). */
    xact: p.string().columnType('xid8').defaultRaw('pg_current_xact_id()'),
    /**
     * The oldest transaction still open when this event was written (its snapshot's xmin): every
     * transaction that commits after this event's has an id at least this (src/live/stream.ts).
     */
    xactXmin: p.string().columnType('xid8').defaultRaw('pg_snapshot_xmin(pg_current_snapshot())'),
  },
});
