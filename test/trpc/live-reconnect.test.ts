// Live updates when connections break (docs/marking/live-updates.md, "Rules"): the process's
// LISTEN connection lost and re-made, clients reconnecting with a last event id that is kept,
// pruned, unknown or malformed, and an event whose transaction commits after a later-numbered one
// while its client is away. Clients through @trpc/client's httpSubscriptionLink, against an app
// instance of the test's own (its connections carry an application_name, so the test can end them).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { LiveEventKind } from '../../src/domain/live-events.ts';
import { publishTaskEvent } from '../../src/operations/live/publish-task-event.ts';
import { testEnv, type TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { liveApp, summary, until, watchInbox as openInbox, watchTasks as openTasks, type LiveApp, type Watch } from '../support/live-clients.ts';
import { freshEachTest } from '../support/suite.ts';
import { anotherStudent, taskWorld, type TaskWorld } from '../support/task-world.ts';

const test = suite('live updates: reconnection');
let env: TestEnv;
let people: People;
let live: LiveApp;

test.before(async () => {
  env = await testEnv();
  live = await liveApp(env, `live-reconnect-${process.pid}`);
  // The hub listens from its first subscription on; from then, a subscription hears what commits
  // once it is among the hub's open ones.
  (await live.services.live.subscribe({ unitId: 0 })).end();
});

/** Waits until the server holds exactly `count` subscriptions (those a test closed are gone). */
const listening = (count: number) => until(`${count} open subscriptions`, () => live.services.live.open === count);

freshEachTest(test, (world) => ({ env, people } = world));

// Every subscription a test opens is closed after it, even when it fails, so the next starts with none.
const opened: Watch[] = [];
const watchTasks = (...args: Parameters<typeof openTasks>) => opened[opened.push(openTasks(...args)) - 1];
const watchInbox = (...args: Parameters<typeof openInbox>) => opened[opened.push(openInbox(...args)) - 1];
test.after.each(async () => {
  for (const w of opened.splice(0)) w.stop();
  await listening(0);
});

type Creds = { username: string; token: string };

const submit = (w: TaskWorld, who: Creds, project: number) =>
  api(env, 'PUT', `/api/projects/${project}/task_def_id/${w.td}`, { as: who, json: { trigger: 'ready_for_feedback' } });
const comment = (w: TaskWorld, project: number, text: string) =>
  api(env, 'POST', `/api/projects/${project}/task_def_id/${w.td}/comments`, { as: people.tutor.creds, json: { comment: text } });

async function taskOf(project: number): Promise<number> {
  const [row] = await env.orm.em.fork().execute<{ id: number }[]>('select id from tasks where project_id = ?', [project]);
  return row.id;
}

/** A transaction on a connection of its own that has published an event and stays open until `commit`. */
async function openTransaction(kind: LiveEventKind, taskId: number) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let published!: () => void;
  const inserted = new Promise<void>((r) => (published = r));
  const done = env.orm.em.fork().transactional(async (em) => {
    await publishTaskEvent(em, kind, [taskId]);
    published();
    await released;
  });
  await Promise.race([inserted, done]);
  return {
    commit: async () => {
      release();
      await done;
    },
  };
}

test('the LISTEN connection lost: every open subscriber gets refetch, then hears what commits after the reconnection', async () => {
  const w = await taskWorld(env, people);
  const tutor = watchInbox(live.url, people.tutor.creds, w.unit);
  const student = watchTasks(live.url, people.student.creds, w.project);
  await listening(2);
  assert.is((await submit(w, people.student.creds, w.project)).status, 200);
  await until('the first event', () => tutor.updates.length === 1 && student.updates.length === 1);

  // As a database restart does to this process: every connection of the app ends (its pool's and
  // its LISTEN connection); the SSE streams to the clients stay open.
  const [{ ended }] = await env.orm.em
    .fork()
    .execute<{ ended: string }[]>(
      'select count(pg_terminate_backend(pid))::text as ended from pg_stat_activity where datname = current_database() and application_name = ?',
      [live.applicationName],
    );
  assert.ok(Number(ended) >= 1);
  await until('refetch', () => tutor.updates.length === 2 && student.updates.length === 2);

  // The refetch is sent once listening again: a change committed now is heard.
  assert.is((await comment(w, w.project, 'After the restart')).status, 201);
  await until('the event after the reconnection', () => tutor.updates.length === 3 && student.updates.length === 3);
  const task = await taskOf(w.project);
  for (const s of [tutor, student]) {
    assert.equal(s.updates.map(summary), [`status u${w.unit} p${w.project} t${task}`, 'refetch', `comment u${w.unit} p${w.project} t${task}`]);
    assert.equal(s.errors, []);
    s.stop();
  }
});

test('reconnecting with a pruned, unknown or malformed last event id: refetch first, then the live events', async () => {
  const w = await taskWorld(env, people);
  const first = watchTasks(live.url, people.student.creds, w.project);
  await listening(1);
  assert.is((await submit(w, people.student.creds, w.project)).status, 200);
  await until('the first event', () => first.updates.length === 1);
  first.stop();
  const seen = first.updates[0].id!;
  // Pruned as LIVE_EVENTS_KEEP_SECONDS has it, by the hub's own pruning.
  await env.orm.em.fork().execute(`update live_events set created_at = now() - interval '1 hour' where id = ?`, [Number(seen)]);
  await live.services.live.prune();
  assert.equal(await env.orm.em.fork().execute('select id from live_events where id = ?', [Number(seen)]), []);

  const clients = [seen, '999999', 'abc', '-1', '1e3'].map((id) => watchTasks(live.url, people.student.creds, w.project, id));
  await until('the refetches', () => clients.every((c) => c.updates.length === 1));
  assert.is((await comment(w, w.project, 'Live again')).status, 201);
  await until('the live event', () => clients.every((c) => c.updates.length === 2));
  const task = await taskOf(w.project);
  for (const c of clients) {
    assert.equal(c.updates.map(summary), ['refetch', `comment u${w.unit} p${w.project} t${task}`]);
    assert.equal(c.errors, []);
    c.stop();
  }
});

test('reconnecting with a kept id: exactly the missed events of its own project or unit, then the live ones', async () => {
  const w = await taskWorld(env, people);
  const other = await anotherStudent(env, w, 'bstudent');
  // The same student and tutor in a second unit: its events belong to neither filter below.
  const w2 = await taskWorld(env, people, {}, {}, 'SIT202');
  const student = watchTasks(live.url, people.student.creds, w.project);
  const tutor = watchInbox(live.url, people.tutor.creds, w.unit);
  await listening(2);
  assert.is((await submit(w, people.student.creds, w.project)).status, 200);
  await until('the first event', () => student.updates.length === 1 && tutor.updates.length === 1);
  student.stop();
  tutor.stop();

  // Missed while away: in this project, in another project of the unit, in another unit.
  assert.is((await comment(w, w.project, 'Look at part 2')).status, 201);
  assert.is((await submit(w, other.actor.creds, other.project)).status, 200);
  assert.is((await submit(w2, people.student.creds, w2.project)).status, 200);
  assert.is(
    (await api(env, 'PUT', `/api/projects/${w.project}/task_def_id/${w.td}`, { as: people.tutor.creds, json: { trigger: 'fix_and_resubmit' } })).status,
    200,
  );

  const studentAgain = watchTasks(live.url, people.student.creds, w.project, student.updates[0].id);
  const tutorAgain = watchInbox(live.url, people.tutor.creds, w.unit, tutor.updates[0].id);
  await until('the missed events', () => studentAgain.updates.length === 2 && tutorAgain.updates.length === 3);
  // A last change, heard live: once it has arrived, nothing else was replayed before it.
  assert.is((await comment(w, w.project, 'Thanks')).status, 201);
  await until('the live event', () => studentAgain.updates.length === 3 && tutorAgain.updates.length === 4);

  const [mine, theirs] = [await taskOf(w.project), await taskOf(other.project)];
  const own = (kind: string) => `${kind} u${w.unit} p${w.project} t${mine}`;
  assert.equal(studentAgain.updates.map(summary), [own('comment'), own('status'), own('comment')]);
  assert.equal(tutorAgain.updates.map(summary), [own('comment'), `status u${w.unit} p${other.project} t${theirs}`, own('status'), own('comment')]);
  for (const s of [studentAgain, tutorAgain]) {
    assert.ok(s.updates.every((u) => Number(u.id) > Number(student.updates[0].id)));
    s.stop();
  }
});

test('an event whose transaction commits after a later-numbered one is replayed to a client that reconnects in between', async () => {
  const w = await taskWorld(env, people);
  const first = watchTasks(live.url, people.student.creds, w.project);
  await listening(1);
  assert.is((await submit(w, people.student.creds, w.project)).status, 200);
  await until('the first event', () => first.updates.length === 1);
  const task = await taskOf(w.project);

  // A takes the lower id and stays open; B takes the next, commits, and is heard.
  const a = await openTransaction('comment', task);
  const b = await openTransaction('pdf', task);
  await b.commit();
  await until("B's event", () => first.updates.length === 2);
  assert.is(first.updates[1].update.type === 'event' && first.updates[1].update.kind, 'pdf');
  first.stop();
  const seen = first.updates[1].id!;
  // A commits while the client is away: its NOTIFY reaches no one.
  await a.commit();
  const [{ id: aId }] = await env.orm.em.fork().execute<{ id: string }[]>(`select id::text from live_events where kind = 'comment'`);
  assert.ok(Number(aId) < Number(seen));

  const again = watchTasks(live.url, people.student.creds, w.project, seen);
  await again.started;
  assert.is(
    (await api(env, 'POST', `/api/projects/${w.project}/task_def_id/${w.td}/comments`, { as: people.tutor.creds, json: { comment: 'Live' } })).status,
    201,
  );
  await until('the live event', () => again.updates.some((u) => Number(u.id) > Number(seen)));
  const own = (kind: string) => `${kind} u${w.unit} p${w.project} t${task}`;
  // A first (replayed; delivery is at least once, so an event may come twice, never not at all), then the live one.
  assert.equal(again.updates.map(summary), [own('comment'), own('comment')]);
  assert.is(again.updates[0].id, aId);
  again.stop();
});

test.after(async () => {
  await live.close();
});

test.run();
