// Clients of the live subscriptions (docs/marking/live-updates.md) for tests: @trpc/client's
// httpSubscriptionLink with the `eventsource` package's EventSource (it sends the credentials as
// headers), and a second app instance on the test database standing for another API process.
import * as assert from 'uvu/assert';
import { createTRPCClient, httpSubscriptionLink } from '@trpc/client';
import { EventSource } from 'eventsource';
import type { FastifyInstance } from 'fastify';
import type { AppRouter } from '../../src/routers/index.ts';
import { buildApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import { createOrm, type Orm } from '../../src/db/orm.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { createServices, type Services } from '../../src/trpc/context.ts';
import type { LiveUpdate } from '../../src/trpc/live.ts';
import type { TestEnv } from './env.ts';

export type Creds = { username: string; token: string };

/** Another "process": its own ORM, services, LISTEN hub and listening socket, on the test database. */
export interface LiveApp {
  app: FastifyInstance;
  orm: Orm;
  services: Services;
  /** The app's tRPC URL. */
  url: string;
  /** Every connection of this app (pool and LISTEN) carries it, so a test can find and end them. */
  applicationName: string;
  close(): Promise<void>;
}

export async function liveApp(env: TestEnv, applicationName: string, live: Partial<Config['live']> = {}): Promise<LiveApp> {
  const url = new URL(env.databaseUrl);
  url.searchParams.set('application_name', applicationName);
  const orm = await createOrm(url.toString());
  const config = { ...env.config, live: { ...env.config.live, ...live } };
  const services = createServices(orm, config, env.clock, createLogger({ level: 'fatal' }));
  const app = await buildApp(services);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return {
    app,
    orm,
    services,
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/trpc`,
    applicationName,
    close: async () => {
      await services.live.close();
      await app.close();
      await orm.close();
    },
  };
}

export function liveClient(url: string, creds: Creds) {
  return createTRPCClient<AppRouter>({
    links: [
      httpSubscriptionLink({
        url,
        EventSource,
        eventSourceOptions: () => ({
          fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, Username: creds.username, 'Auth-Token': creds.token } }),
        }),
      }),
    ],
  });
}

/** What one subscription received, as the client saw it. */
export interface Watch {
  updates: { id?: string; update: LiveUpdate }[];
  errors: unknown[];
  started: Promise<void>;
  stop(): void;
}

interface Handlers {
  onStarted(): void;
  onData(data: { id: string; data: LiveUpdate }): void;
  onError(error: unknown): void;
}

function watch(subscribe: (handlers: Handlers) => { unsubscribe(): void }): Watch {
  const updates: Watch['updates'] = [];
  const errors: unknown[] = [];
  let started!: () => void;
  const startedP = new Promise<void>((r) => (started = r));
  const sub = subscribe({
    onStarted: () => started(),
    onData: (data) => updates.push({ id: data.id, update: data.data as LiveUpdate }),
    onError: (error) => {
      errors.push(error);
      started();
    },
  });
  return { updates, errors, started: startedP, stop: () => sub.unsubscribe() };
}

export const watchInbox = (url: string, creds: Creds, unit: number, lastEventId?: string) =>
  watch((h) => liveClient(url, creds).units.inboxChanges.subscribe({ id: unit, lastEventId }, { ...h }));
export const watchTasks = (url: string, creds: Creds, project: number, lastEventId?: string) =>
  watch((h) => liveClient(url, creds).projects.taskChanges.subscribe({ id: project, lastEventId }, { ...h }));

/** Waits for a condition that follows from what the test did; the bound only turns a hang into a failure. */
export async function until(what: string, check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.unreachable(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** An update's fields a test compares: kind and ids, or 'refetch'. */
export const summary = (u: { update: LiveUpdate }) =>
  u.update.type === 'refetch' ? 'refetch' : `${u.update.kind} u${u.update.unitId} p${u.update.projectId} t${u.update.taskId}`;
