// Live updates, the writing side (docs/marking/live-updates.md). The operations that change a
// task call this inside their transaction: one statement records an event per task in
// live_events (for clients that reconnect) and queues a NOTIFY carrying its ids. PostgreSQL
// delivers a NOTIFY only when the transaction commits, and never after a rollback, so a receiver
// never hears of a change it cannot read yet. Each process's one LISTEN connection (src/live/hub.ts)
// passes the event to its subscribers, which re-read what it names through authorised procedures.
import { sql } from 'kysely';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { LIVE_CHANNEL, type LiveEventKind } from '../../domain/live-events.ts';

/** Records and announces one event per task (their units and projects found in the same statement). */
export async function publishTaskEvent(em: Em, kind: LiveEventKind, taskIds: readonly number[]): Promise<void> {
  if (taskIds.length === 0) return;
  // Keys of one letter: the payload is read by every process for every event.
  await sql`
    with e as (
      insert into live_events (unit_id, project_id, task_id, kind, created_at)
      select p.unit_id, t.project_id, t.id, ${kind}, now()
      from tasks t join projects p on p.id = t.project_id
      where t.id = any(${[...new Set(taskIds)]}::int[])
      returning id, unit_id, project_id, task_id, kind
    )
    select pg_notify(${LIVE_CHANNEL}, json_build_object('i', id, 'u', unit_id, 'p', project_id, 't', task_id, 'k', kind)::text) from e`.execute(db(em));
}
