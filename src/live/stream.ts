// One subscription's stream: what the client missed since the last event id it saw (from
// live_events, which any process wrote), then the events as they are heard. Each item carries
// the id the client sends back when it reconnects (tRPC's `tracked`).
import { sql } from 'kysely';
import type { Orm } from '../db/orm.ts';
import { db } from '../db/kysely.ts';
import { type LiveEvent, type LiveFilter, type LiveHub, QUEUE_CAP, type Subscription } from './hub.ts';
import type { LiveEventKind } from '../domain/live-events.ts';

/** What a client receives: an event (ids only: re-read what it names), or `refetch` (re-read everything). */
export type LiveUpdate = { type: 'event'; kind: LiveEventKind; unitId: number; projectId: number; taskId: number } | { type: 'refetch' };

export interface LiveStreamOptions {
  hub: LiveHub;
  orm: Orm;
  /** Opened (hub.subscribe) before the stream is returned, so nothing committed after that is missed. */
  sub: Subscription;
  /** The id of the last event the client saw, when it reconnects. */
  lastEventId: string | null | undefined;
  signal: AbortSignal | undefined;
  /** Asked again now and then while events flow: false ends the subscription (e.g. the caller's role was removed). */
  stillAllowed: () => Promise<boolean>;
}

const update = (e: LiveEvent): LiveUpdate => ({ type: 'event', kind: e.kind, unitId: e.unitId, projectId: e.projectId, taskId: e.taskId });

/**
 * Yields [id, update] pairs; ends (as an abort, so the client reconnects elsewhere) when the hub
 * ends the subscription. The subscription ends with the request (`signal`), even if the stream
 * is never read.
 */
export function liveStream(options: LiveStreamOptions): AsyncGenerator<[id: string, update: LiveUpdate]> {
  const { sub, signal } = options;
  const end = () => sub.end();
  if (signal?.aborted) sub.end();
  signal?.addEventListener('abort', end, { once: true });
  return events(options, () => signal?.removeEventListener('abort', end));
}

async function* events(options: LiveStreamOptions, done: () => void): AsyncGenerator<[id: string, update: LiveUpdate]> {
  const { hub, sub, signal } = options;
  const filter = sub.filter;
  try {
    // Listening already: what commits from here on is queued; the table has what came before.
    const replayed = new Set<number>();
    if (options.lastEventId != null) {
      const missed = await missedSince(options.orm, filter, options.lastEventId);
      if (missed === 'too-old') yield [String(hub.lastSeenId), { type: 'refetch' }];
      else
        for (const e of missed) {
          replayed.add(e.id);
          yield [String(e.id), update(e)];
        }
    }
    // The receiver's right is checked again at most every recheckMs while events flow, in the
    // background: an event is never held back by a check, nor by the queue of other
    // subscriptions' checks (all due at once when an event reaches them all). A check that
    // fails (the database is away) is tried again at the next event; one that says no ends the
    // stream (as a return: the client does not reconnect).
    let due = performance.now() + hub.recheckMs;
    let checking = false;
    let revoked = false;
    while (!sub.ended) {
      await sub.next();
      if (sub.ended) break;
      if (!checking && performance.now() > due) {
        checking = true;
        hub
          .recheck(options.stillAllowed)
          .then((allowed) => {
            if (allowed) due = performance.now() + hub.recheckMs;
            else {
              revoked = true;
              sub.end();
            }
          })
          .catch(() => {})
          .finally(() => (checking = false));
      }
      const message = sub.queue.shift()!;
      if (message.type === 'refetch') yield [String(hub.lastSeenId), { type: 'refetch' }];
      else if (!replayed.delete(message.event.id)) yield [String(message.event.id), update(message.event)];
    }
    if (revoked) return;
    if (!signal?.aborted) throw new DOMException('The server is stopping', 'AbortError');
  } finally {
    done();
    sub.end();
  }
}

/**
 * The events of this filter the client may have missed since `lastEventId`; 'too-old' when that
 * event is no longer kept (or never was), or when more were missed than a subscription would queue.
 *
 * Ids come from a sequence, taken before commit, so transactions commit out of id order: an event
 * numbered before `last` may commit after it, while the client is away. Besides the events after
 * `last`, this replays those whose transaction was not yet committed when `last`'s was written:
 * every transaction that commits later has an id (xid8) at least the `xact_xmin` stored with `last`
 * (the oldest transaction then open). The standard outbox technique (transaction ids and snapshot
 * xmin) used for replay only: live events are delivered on commit by NOTIFY, without waiting for
 * older transactions. A replayed event may have been heard already (delivery is at least once).
 */
async function missedSince(orm: Orm, filter: LiveFilter, lastEventId: string): Promise<LiveEvent[] | 'too-old'> {
  if (!/^\d{1,15}$/.test(lastEventId)) return 'too-old';
  const last = Number(lastEventId);
  const k = db(orm.em.fork());
  const known = await k
    .selectFrom('live_events')
    .select('xact_xmin')
    .where('id', '=', last as never)
    .executeTakeFirst();
  if (!known) return 'too-old';
  let query = k
    .selectFrom('live_events')
    .select(['id', 'unit_id', 'project_id', 'task_id', 'kind'])
    .where((e) => e.or([e('id', '>', last as never), e.and([e('id', '<', last as never), e('xact', '>=', sql<string>`${known.xact_xmin}::xid8`)])]));
  query = 'unitId' in filter ? query.where('unit_id', '=', filter.unitId) : query.where('project_id', '=', filter.projectId);
  const rows = await query
    .orderBy('id')
    .limit(QUEUE_CAP + 1)
    .execute();
  if (rows.length > QUEUE_CAP) return 'too-old';
  return rows.map((r) => ({ id: Number(r.id), unitId: r.unit_id, projectId: r.project_id, taskId: r.task_id, kind: r.kind as LiveEventKind }));
}
