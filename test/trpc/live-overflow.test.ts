// A live subscription whose client falls behind (docs/marking/live-updates.md, "Bounded memory"):
// it holds at most QUEUE_CAP undelivered events, then one `refetch` instead of the rest, and after
// that the events that come later. The queue on its own, and the stream a client reads, with
// events published through the database and heard by a LISTEN hub.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LiveHub, type LiveMessage, QUEUE_CAP, Subscription } from '../../src/live/hub.ts';
import { liveStream } from '../../src/live/stream.ts';
import { createLogger } from '../../src/lib/logger.ts';
import type { LiveEventKind } from '../../src/domain/live-events.ts';
import { publishTaskEvent } from '../../src/operations/live/publish-task-event.ts';
import { testEnv, type TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { until } from '../support/live-clients.ts';
import { freshEachTest } from '../support/suite.ts';
import { taskWorld } from '../support/task-world.ts';

const test = suite('live updates: a client that falls behind');
let env: TestEnv;
let people: People;

test.before(async () => {
  env = await testEnv();
});

freshEachTest(test, (world) => ({ env, people } = world));

const event = (id: number): LiveMessage => ({ type: 'event', event: { id, unitId: 1, projectId: 1, taskId: 1, kind: 'comment' } });

test('a queue never holds more than QUEUE_CAP: past it, one refetch replaces what was queued, then later events queue again', () => {
  const sub = new Subscription({ projectId: 1 }, () => {});
  let longest = 0;
  for (let id = 1; id <= QUEUE_CAP * 4; id++) {
    sub.push(event(id));
    longest = Math.max(longest, sub.queue.length);
  }
  assert.is(longest, QUEUE_CAP);
  // The events behind the refetch are covered by the re-read the client makes when it gets it.
  assert.equal(sub.queue, [{ type: 'refetch' }]);
  sub.push({ type: 'refetch' });
  assert.equal(sub.queue, [{ type: 'refetch' }]);

  sub.queue.shift(); // delivered
  sub.push(event(5000));
  sub.push(event(5001));
  assert.equal(sub.queue, [event(5000), event(5001)]);
});

async function publish(kind: LiveEventKind, taskId: number, times = 1): Promise<void> {
  await env.orm.em.fork().transactional(async (em) => {
    for (let i = 0; i < times; i++) await publishTaskEvent(em, kind, [taskId]);
  });
}

test('a stream not read while more than QUEUE_CAP events are heard yields one refetch, then the events after it', async () => {
  const w = await taskWorld(env, people);
  assert.is(
    (await api(env, 'PUT', `/api/projects/${w.project}/task_def_id/${w.td}`, { as: people.student.creds, json: { trigger: 'ready_for_feedback' } })).status,
    200,
  );
  const [{ id: task }] = await env.orm.em.fork().execute<{ id: number }[]>('select id from tasks where project_id = ?', [w.project]);

  // A hub of the test's own, made after the tables were emptied: the largest id it has heard is
  // this test's (the shared app's hub may be closed by another file of this process).
  const hub = new LiveHub({ databaseUrl: env.databaseUrl, maxSubscriptions: 10, keepMs: 300_000, recheckMs: 30_000, logger: createLogger({ level: 'error' }) });
  (await hub.subscribe({ unitId: 0 })).end();
  const stop = new AbortController();
  const stream = liveStream({
    hub,
    orm: env.orm,
    sub: await hub.subscribe({ projectId: w.project }),
    lastEventId: undefined,
    signal: stop.signal,
    stillAllowed: async () => true,
  });
  const firstRead = stream.next();
  await until('the subscription', () => hub.open === 1);
  await publish('status', task);
  const first = await firstRead;
  assert.is(!first.done && first.value[1].type === 'event' && first.value[1].kind, 'status');

  // The client reads nothing while more events than a queue holds are committed and heard.
  await publish('comment', task, QUEUE_CAP + 44);
  const [{ max }] = await env.orm.em.fork().execute<{ max: string }[]>('select max(id)::text as max from live_events');
  await until('every event heard', () => hub.lastSeenId === Number(max));

  const second = await stream.next();
  assert.equal(!second.done && second.value, [max, { type: 'refetch' }]);
  // Nothing else was kept for it: the next item is the next event committed.
  await publish('pdf', task);
  const third = await stream.next();
  assert.equal(!third.done && third.value[1], { type: 'event', kind: 'pdf', unitId: w.unit, projectId: w.project, taskId: task });
  assert.is(!third.done && Number(third.value[0]), Number(max) + 1);

  stop.abort();
  assert.is((await stream.next()).done, true);
  assert.is(hub.open, 0);
  await hub.close();
});

test.run();
