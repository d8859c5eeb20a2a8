// Live updates, the receiving side (docs/marking/live-updates.md). One LISTEN connection per
// process hears every committed task event (src/operations/live/publish-task-event.ts) and hands
// it to the open subscriptions whose filter it matches. The connection is a pg client of its own,
// not the pool's: LISTEN holds a session. It is opened with the first subscription and reconnects
// with back-off when the database goes away; subscribers then get a `refetch` signal, as events
// committed meanwhile were not heard.
//
// Memory is bounded twice: a subscription keeps at most QUEUE_CAP undelivered events (a client
// that falls further behind gets `refetch` instead of a growing queue), and a process keeps at most
// LIVE_MAX_SUBSCRIPTIONS subscriptions open (more are refused with LiveFull).
import PQueue from 'p-queue';
import pg from 'pg';
import type { Logger } from '../lib/logger.ts';
import { LIVE_CHANNEL, type LiveEventKind } from '../domain/live-events.ts';

/** An event as the NOTIFY carries it: ids only. */
export interface LiveEvent {
  id: number;
  unitId: number;
  projectId: number;
  taskId: number;
  kind: LiveEventKind;
}

/** What a subscription yields: an event, or word that the client should re-read everything (events were lost). */
export type LiveMessage = { type: 'event'; event: LiveEvent } | { type: 'refetch' };

/** Which events a subscription receives: those of one unit, or of one project. */
export type LiveFilter = { unitId: number } | { projectId: number };

/** Undelivered events one subscription may hold before it is told to refetch instead. */
export const QUEUE_CAP = 256;
const PRUNE_EVERY_MS = 60_000;
const BACKOFF_MS = [100, 250, 500, 1000, 2000, 5000];

export class LiveFull extends Error {
  constructor() {
    super('Too many live subscriptions are open on this server; try again later.');
  }
}

export class LiveUnavailable extends Error {
  constructor() {
    super('Live updates are not available: the database cannot be reached.');
  }
}

/** One open subscription: its filter and its bounded queue of messages not yet delivered. */
export class Subscription {
  readonly queue: LiveMessage[] = [];
  private wake: (() => void) | undefined;
  ended = false;

  constructor(
    readonly filter: LiveFilter,
    private readonly onEnd: (sub: Subscription) => void,
  ) {}

  matches(event: LiveEvent): boolean {
    return 'unitId' in this.filter ? event.unitId === this.filter.unitId : event.projectId === this.filter.projectId;
  }

  push(message: LiveMessage): void {
    if (this.ended) return;
    if (message.type === 'refetch' || this.queue.length >= QUEUE_CAP) {
      // Whatever is queued is superseded: the client re-reads everything.
      this.queue.length = 0;
      this.queue.push({ type: 'refetch' });
    } else if (this.queue[0]?.type !== 'refetch') {
      // (Behind a pending refetch, an event is covered by the re-read the client makes.)
      this.queue.push(message);
    }
    this.wake?.();
  }

  /** Resolves when there is something in the queue, or the subscription ends. */
  async next(): Promise<void> {
    if (this.queue.length > 0 || this.ended) return;
    await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = undefined;
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd(this);
    this.wake?.();
  }
}

export interface LiveHubOptions {
  databaseUrl: string;
  maxSubscriptions: number;
  keepMs: number;
  /** How often, at most, a subscription's right to its events is checked again while events flow. */
  recheckMs: number;
  logger: Logger;
}

export class LiveHub {
  private readonly subscriptions = new Set<Subscription>();
  private client: pg.Client | undefined;
  private listening: Promise<void> | undefined;
  private connected = false;
  private attempt = 0;
  private retry: NodeJS.Timeout | undefined;
  private pruner: NodeJS.Timeout | undefined;
  private closed = false;
  /**
   * Re-authorisations run one at a time: when an event reaches hundreds of subscriptions whose
   * checks are all due, they hold one database connection in turn, not the pool.
   */
  private readonly checks = new PQueue({ concurrency: 1 });
  /** The largest event id heard: where a client told to refetch may resume from. */
  lastSeenId = 0;

  constructor(private readonly options: LiveHubOptions) {}

  get recheckMs(): number {
    return this.options.recheckMs;
  }

  /** Runs a subscription's re-authorisation in the hub's queue of checks. */
  recheck(check: () => Promise<boolean>): Promise<boolean> {
    return this.checks.add(() => check());
  }

  get open(): number {
    return this.subscriptions.size;
  }

  /** Opens a subscription once the process listens (so nothing committed from now on is missed). */
  async subscribe(filter: LiveFilter): Promise<Subscription> {
    if (this.closed || this.subscriptions.size >= this.options.maxSubscriptions) throw new LiveFull();
    const sub = new Subscription(filter, (s) => this.subscriptions.delete(s));
    this.subscriptions.add(sub);
    try {
      await this.ensureListening();
    } catch {
      sub.end();
      throw new LiveUnavailable();
    }
    return sub;
  }

  /** Ends every subscription (the stop: clients reconnect to another process, with their last event id). */
  endSubscriptions(): void {
    for (const sub of [...this.subscriptions]) sub.end();
  }

  /** Ends the subscriptions and closes the LISTEN connection. */
  async close(): Promise<void> {
    this.closed = true;
    this.endSubscriptions();
    clearTimeout(this.retry);
    clearInterval(this.pruner);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  /** Deletes events older than LIVE_EVENTS_KEEP_SECONDS. */
  async prune(): Promise<void> {
    await this.client?.query(`delete from live_events where created_at < now() - make_interval(secs => $1)`, [this.options.keepMs / 1000]);
  }

  private ensureListening(): Promise<void> {
    if (this.connected) return Promise.resolve();
    this.listening ??= this.connect().finally(() => (this.listening = undefined));
    return this.listening;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.databaseUrl, connectionTimeoutMillis: 5000 });
    client.on('error', () => {}); // 'end' follows and reconnects
    client.on('notification', (message) => {
      if (message.channel === LIVE_CHANNEL && message.payload) this.dispatch(message.payload);
    });
    await client.connect();
    try {
      await client.query(`listen ${LIVE_CHANNEL}`);
      const { rows } = await client.query<{ max: string }>('select coalesce(max(id), 0)::text as max from live_events');
      this.lastSeenId = Math.max(this.lastSeenId, Number(rows[0].max));
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (this.closed) return void (await client.end());
    const reconnected = this.attempt > 0;
    this.client = client;
    this.connected = true;
    this.attempt = 0;
    client.once('end', () => this.lost(client));
    this.pruner ??= setInterval(() => void this.prune().catch(() => {}), PRUNE_EVERY_MS).unref();
    // Events committed while we were not listening were not heard: every subscriber re-reads.
    if (reconnected) for (const sub of this.subscriptions) sub.push({ type: 'refetch' });
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.connected = false;
    if (this.closed) return;
    this.options.logger.warn('live updates: the LISTEN connection was lost; reconnecting');
    this.reconnect();
  }

  private reconnect(): void {
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt++;
    this.retry = setTimeout(() => {
      if (this.closed) return;
      this.ensureListening().catch(() => this.reconnect());
    }, delay);
    this.retry.unref();
  }

  private dispatch(payload: string): void {
    const raw = JSON.parse(payload) as { i: number; u: number; p: number; t: number; k: LiveEventKind };
    const event: LiveEvent = { id: Number(raw.i), unitId: raw.u, projectId: raw.p, taskId: raw.t, kind: raw.k };
    if (event.id > this.lastSeenId) this.lastSeenId = event.id;
    for (const sub of this.subscriptions) if (sub.matches(event)) sub.push({ type: 'event', event });
  }
}
