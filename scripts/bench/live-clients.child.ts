// Child process of the live-updates bench (live-updates.bench.ts): opens `count` subscriptions
// to a unit's inbox with @trpc/client's httpSubscriptionLink, as a typed client would, and
// records when each event arrives. A process of its own, so the clients' SSE parsing neither
// queues behind the server's work on its event loop nor counts in the server's heap and CPU time.
// Times are absolute (timeOrigin + now), comparable with the parent's on the same machine.
import { createTRPCClient, httpSubscriptionLink } from '@trpc/client';
import { EventSource } from 'eventsource';
import type { AppRouter } from '../../src/routers/index.ts';

export interface LiveClientsData {
  url: string;
  headers: Record<string, string>;
  unitId: number;
  count: number;
}

/** Child → parent: all subscriptions started; every subscriber has one task's event; the receipts. */
export type LiveClientsMessage =
  | { type: 'started' }
  | { type: 'complete'; taskId: number }
  | { type: 'receipts'; receipts: [taskId: number, at: number][]; errors: number };

const { url, headers, unitId, count } = JSON.parse(process.env.LIVE_CLIENTS!) as LiveClientsData;
const send = (message: LiveClientsMessage) => process.send!(message);
const now = () => performance.timeOrigin + performance.now();

const client = createTRPCClient<AppRouter>({
  links: [
    httpSubscriptionLink({
      url,
      EventSource,
      eventSourceOptions: () => ({ fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, ...headers } }) }),
    }),
  ],
});

const receipts: [number, number][] = [];
const perTask = new Map<number, number>();
let started = 0;
let errors = 0;
const subs = Array.from({ length: count }, () =>
  client.units.inboxChanges.subscribe(
    { id: unitId },
    {
      onStarted: () => {
        if (++started === count) send({ type: 'started' });
      },
      onData: ({ data }) => {
        if (data.type !== 'event') return;
        receipts.push([data.taskId, now()]);
        const n = (perTask.get(data.taskId) ?? 0) + 1;
        perTask.set(data.taskId, n);
        if (n === count) send({ type: 'complete', taskId: data.taskId });
      },
      onError: () => errors++,
    },
  ),
);

process.on('message', (message: 'report') => {
  if (message !== 'report') return;
  for (const s of subs) s.unsubscribe();
  process.send!({ type: 'receipts', receipts, errors } satisfies LiveClientsMessage, () => process.exit(0));
});
