// Live updates over server-sent events (docs/marking/live-updates.md), through @trpc/client's
// httpSubscriptionLink against listening apps: two app instances on one database, each with its
// own ORM and LISTEN connection, stand for two API processes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTRPCClient, httpSubscriptionLink, TRPCClientError } from '@trpc/client';
import { EventSource } from 'eventsource';
import type { FastifyInstance } from 'fastify';
import type { AppRouter } from '../../src/routers/index.ts';
import { buildApp } from '../../src/app.ts';
import { createOrm, type Orm } from '../../src/db/orm.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { createServices, type Services } from '../../src/trpc/context.ts';
import type { LiveUpdate } from '../../src/trpc/live.ts';
import { listeningBaseUrl, testEnv, type TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { freshEachTest } from '../support/suite.ts';
import { anotherStudent, taskWorld, type TaskWorld } from '../support/task-world.ts';

const test = suite('live updates: tRPC subscriptions over SSE');
let env: TestEnv;
let people: People;
let urlA: string;
let urlB: string;
let appB: FastifyInstance;
let ormB: Orm;
let servicesB: Services;
const CAP_B = 3;

const urlOf = (app: FastifyInstance) => {
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/trpc`;
};

test.before(async () => {
  env = await testEnv();
  urlA = `${await listeningBaseUrl(env)}/trpc`;
  // The second "process": its own ORM, services and hub, and a small subscription cap.
  ormB = await createOrm(env.databaseUrl);
  // Re-authorisation at every event (30 s in service), so a revoked role is seen at once.
  const config = { ...env.config, live: { ...env.config.live, maxSubscriptions: CAP_B, recheckMs: 0 } };
  servicesB = createServices(ormB, config, env.clock, createLogger({ level: 'error' }));
  appB = await buildApp(servicesB);
  await appB.listen({ port: 0, host: '127.0.0.1' });
  urlB = urlOf(appB);
});

freshEachTest(test, (world) => ({ env, people } = world));

type Creds = { username: string; token: string };

function client(url: string, creds: Creds) {
  return createTRPCClient<AppRouter>({
    links: [
      httpSubscriptionLink({
        url,
        // Node has no EventSource; the `eventsource` package's sends the credentials as headers.
        EventSource,
        eventSourceOptions: () => ({
          fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, Username: creds.username, 'Auth-Token': creds.token } }),
        }),
      }),
    ],
  });
}

interface Watch {
  updates: { id?: string; update: LiveUpdate }[];
  errors: unknown[];
  started: Promise<void>;
  /** Whether the server ended the stream (tRPC's `return`: the client does not reconnect). */
  completed: () => boolean;
  stop(): void;
}

interface Handlers {
  onStarted(): void;
  onData(data: { id: string; data: LiveUpdate }): void;
  onError(error: unknown): void;
  onComplete(): void;
}

function watch(subscribe: (handlers: Handlers) => { unsubscribe(): void }): Watch {
  const updates: Watch['updates'] = [];
  const errors: unknown[] = [];
  let started!: () => void;
  let completed = false;
  const startedP = new Promise<void>((r) => (started = r));
  const sub = subscribe({
    onComplete: () => (completed = true),
    onStarted: () => started(),
    onData: (data) => updates.push({ id: data.id, update: data.data as LiveUpdate }),
    onError: (error) => {
      errors.push(error);
      started();
    },
  });
  return { updates, errors, started: startedP, completed: () => completed, stop: () => sub.unsubscribe() };
}

const inbox = (url: string, creds: Creds, unit: number, lastEventId?: string) =>
  watch((h) => client(url, creds).units.inboxChanges.subscribe({ id: unit, lastEventId }, { ...h }));
const tasks = (url: string, creds: Creds, project: number, lastEventId?: string) =>
  watch((h) => client(url, creds).projects.taskChanges.subscribe({ id: project, lastEventId }, { ...h }));

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.unreachable(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const submit = (w: TaskWorld, who: { creds: Creds }, project: number) =>
  api(env, 'PUT', `/api/projects/${project}/task_def_id/${w.td}`, { as: who.creds, json: { trigger: 'ready_for_feedback' } });

test('staff hear of their unit, each student of their own tasks only, across two app instances', async () => {
  const w = await taskWorld(env, people);
  const other = await anotherStudent(env, w, 'bstudent');
  const tutor = inbox(urlB, people.tutor.creds, w.unit);
  const mine = tasks(urlA, people.student.creds, w.project);
  const theirs = tasks(urlB, other.actor.creds, other.project);
  await Promise.all([tutor.started, mine.started, theirs.started]);

  // The change is made through app A's REST routes; app B's subscribers hear it through NOTIFY.
  assert.is((await submit(w, people.student, w.project)).status, 200);
  await until('the tutor and the student', () => tutor.updates.length === 1 && mine.updates.length === 1);
  assert.is(mine.updates[0].update.type, 'event');
  assert.equal(mine.updates[0].update, tutor.updates[0].update);
  assert.equal(mine.updates[0].update, {
    type: 'event',
    kind: 'status',
    unitId: w.unit,
    projectId: w.project,
    taskId: (mine.updates[0].update as { taskId: number }).taskId,
  });

  assert.is((await submit(w, other.actor, other.project)).status, 200);
  const taskPath = `/api/projects/${w.project}/task_def_id/${w.td}/comments`;
  assert.is((await api(env, 'POST', taskPath, { as: people.tutor.creds, json: { comment: 'Good start' } })).status, 201);
  await until('the comment', () => mine.updates.length === 2 && theirs.updates.length === 1 && tutor.updates.length === 3);
  // Each student heard exactly their own task's events; the tutor all three.
  assert.equal(
    mine.updates.map((u) => (u.update as { kind: string; projectId: number }).projectId),
    [w.project, w.project],
  );
  assert.equal((mine.updates[1].update as { kind: string }).kind, 'comment');
  assert.equal(
    theirs.updates.map((u) => (u.update as { projectId: number }).projectId),
    [other.project],
  );
  assert.equal(
    tutor.updates.map((u) => (u.update as { kind: string }).kind),
    ['status', 'status', 'comment'],
  );
  for (const s of [tutor, mine, theirs]) s.stop();
});

test("a student may not watch another student's project, nor a unit's inbox", async () => {
  const w = await taskWorld(env, people);
  const other = await anotherStudent(env, w, 'bstudent');
  const spying = tasks(urlA, other.actor.creds, w.project);
  const inboxSpy = inbox(urlA, other.actor.creds, w.unit);
  await until('the refusals', () => spying.errors.length === 1 && inboxSpy.errors.length === 1);
  assert.instance(spying.errors[0], TRPCClientError);
  assert.is((spying.errors[0] as TRPCClientError<AppRouter>).data?.code, 'FORBIDDEN');
  assert.is((inboxSpy.errors[0] as TRPCClientError<AppRouter>).data?.code, 'FORBIDDEN');
  assert.is((await submit(w, people.student, w.project)).status, 200);
  spying.stop();
  inboxSpy.stop();
  assert.equal(spying.updates, []);
});

test('a client reconnecting with its last event id gets what it missed; an id no longer kept gets refetch', async () => {
  const w = await taskWorld(env, people);
  const first = tasks(urlA, people.student.creds, w.project);
  await first.started;
  assert.is((await submit(w, people.student, w.project)).status, 200);
  await until('the first event', () => first.updates.length === 1);
  first.stop();
  const seen = first.updates[0].id!;
  // Missed while away: a comment, and a status change by the tutor.
  const path = `/api/projects/${w.project}/task_def_id/${w.td}`;
  assert.is((await api(env, 'POST', `${path}/comments`, { as: people.tutor.creds, json: { comment: 'Look at part 2' } })).status, 201);
  assert.is((await api(env, 'PUT', path, { as: people.tutor.creds, json: { trigger: 'fix_and_resubmit' } })).status, 200);

  // Back on the other instance, with the id it saw.
  const again = tasks(urlB, people.student.creds, w.project, seen);
  await until('the missed events', () => again.updates.length === 2);
  assert.equal(
    again.updates.map((u) => (u.update as { kind: string }).kind),
    ['comment', 'status'],
  );
  assert.ok(Number(again.updates[0].id) > Number(seen));
  again.stop();

  // Never an event's id (ids start at 1); one pruned away is answered the same.
  const stale = tasks(urlA, people.student.creds, w.project, '0');
  await until('refetch', () => stale.updates.length === 1);
  assert.equal(stale.updates[0].update, { type: 'refetch' });
  stale.stop();
});

test('a tutor removed from the unit stops hearing of it: the re-authorisation ends the stream', async () => {
  const w = await taskWorld(env, people);
  const tutor = inbox(urlB, people.tutor.creds, w.unit);
  await tutor.started;
  await env.orm.em
    .fork()
    .getConnection()
    .execute('delete from unit_roles where unit_id = ? and user_id = (select id from users where username = ?)', [w.unit, people.tutor.creds.username]);
  // The check runs beside the event, never ahead of it: this one may still arrive; then the stream ends.
  assert.is((await submit(w, people.student, w.project)).status, 200);
  await until('the end of the stream', () => tutor.completed());
  const heard = tutor.updates.length;
  assert.ok(heard <= 1);
  const path = `/api/projects/${w.project}/task_def_id/${w.td}/comments`;
  assert.is((await api(env, 'POST', path, { as: people.student.creds, json: { comment: 'Anyone there?' } })).status, 201);
  // A subscriber still open on the unit would hear this comment; the ended one does not.
  const witness = inbox(urlA, people.convenor.creds, w.unit);
  await witness.started;
  assert.is((await api(env, 'POST', path, { as: people.student.creds, json: { comment: 'Hello?' } })).status, 201);
  await until('the witness', () => witness.updates.length === 1);
  assert.is(tutor.updates.length, heard);
  assert.equal(tutor.errors, []);
  witness.stop();
  tutor.stop();
});

test('a process keeps at most LIVE_MAX_SUBSCRIPTIONS open: the next is refused with TOO_MANY_REQUESTS', async () => {
  const w = await taskWorld(env, people);
  const open = Array.from({ length: CAP_B }, () => tasks(urlB, people.student.creds, w.project));
  await Promise.all(open.map((s) => s.started));
  const refused = tasks(urlB, people.student.creds, w.project);
  await until('the refusal', () => refused.errors.length === 1);
  assert.is((refused.errors[0] as TRPCClientError<AppRouter>).data?.code, 'TOO_MANY_REQUESTS');
  assert.match((refused.errors[0] as Error).message, /Too many live subscriptions/);
  refused.stop();
  for (const s of open) s.stop();
});

test.after(async () => {
  await appB.close();
  await servicesB.live.close();
  await ormB.close();
  // The shared app keeps listening: other files in this process use it (listeningBaseUrl).
});

test.run();
