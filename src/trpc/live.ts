// Serving a live subscription (src/live) from a procedure whose scope has authorised the caller:
// the stream, tracked with event ids for reconnection, the caller's right checked again while it
// runs, and the hub's refusals as errors the client can read.
import { tracked, TRPCError } from '@trpc/server';
import type { Em } from '../db/orm.ts';
import { findSession } from '../operations/auth/session-tokens.ts';
import { LiveFull, LiveUnavailable, type LiveFilter, type Subscription } from '../live/hub.ts';
import { liveStream } from '../live/stream.ts';
import type { Session } from '../operations/auth/session-tokens.ts';
import type { Caller } from '../operations/auth/session-tokens.ts';
import type { Context } from './context.ts';
import { serviceUnavailable } from '../lib/errors.ts';

export type { LiveUpdate } from '../live/stream.ts';

interface LiveRequest {
  ctx: Context & { user: Caller; session: Session };
  filter: LiveFilter;
  lastEventId: string | null | undefined;
  signal: AbortSignal | undefined;
  /** Whether the caller (re-read with this entity manager) may still receive these events. */
  allowed: (em: Em, user: Caller) => Promise<boolean>;
}

/**
 * Opens the subscription before answering, so tRPC's `connected` (the client's `onStarted`) comes
 * after the process listens for the caller: a change committed after it is never missed.
 */
export async function serveLive({ ctx, filter, lastEventId, signal, allowed }: LiveRequest) {
  const live = ctx.live;
  if (!live) throw serviceUnavailable('Live updates are only served over HTTP.');
  const { username, token } = ctx.credentials;
  const stillAllowed = async () => {
    const em = live.orm.em.fork();
    const found = await findSession(em, username!, token!, ctx.clock.now(), ctx.sessions);
    return found.kind === 'valid' && (await allowed(em, found.user));
  };
  let sub: Subscription;
  try {
    sub = await live.hub.subscribe(filter);
  } catch (error) {
    if (error instanceof LiveFull) throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: error.message });
    if (error instanceof LiveUnavailable) throw serviceUnavailable(error.message, error);
    throw error;
  }
  const stream = liveStream({ hub: live.hub, orm: live.orm, sub, lastEventId, signal, stillAllowed });
  return (async function* () {
    for await (const [id, update] of stream) yield tracked(id, update);
  })();
}
