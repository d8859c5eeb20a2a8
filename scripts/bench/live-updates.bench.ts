// Live updates (docs/marking/live-updates.md): SUBSCRIBERS clients of a small demo unit's inbox
// over SSE (@trpc/client's httpSubscriptionLink, the `eventsource` package), then EVENTS task
// events published by publishTaskEvent in their own transactions. Prints the time from the commit
// to each subscriber receiving the event (p50, p99, over every event x subscriber) and the server's
// heap and CPU time per event. The clients run in a child process (live-clients.child.ts), so
// their parsing neither delays the server's loop nor counts in its heap or CPU time. Figures only, never a
// pass/fail.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork } from 'node:child_process';
import { User } from '../../schema/index.ts';
import { loadConfig } from '../../src/config.ts';
import { db } from '../../src/db/kysely.ts';
import type { Em, Orm } from '../../src/db/orm.ts';
import { ensureAdmin } from '../../src/operations/users/ensure-admin.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { issueToken } from '../../src/operations/auth/session-tokens.ts';
import { publishTaskEvent } from '../../src/operations/live/publish-task-event.ts';
import { createServices } from '../../src/trpc/context.ts';
import { DEFAULT_OPTIONS } from '../demo/options.ts';
import { seedDemo } from '../demo/seed.ts';
import type { LiveClientsData, LiveClientsMessage } from './live-clients.child.ts';
import { withBench } from './setup.ts';
import { quantile } from './support.ts';

const SUBSCRIBERS = 500;
const EVENTS = 40;
const GAP_MS = 50;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

let unitId = 0;
let convenor = '';

await withBench(
  async (orm: Orm) => {
    const config = loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'course-bench-live-')), ADMIN_USERNAME: 'admin' });
    await ensureAdmin(orm, config);
    const demo = await seedDemo(createServices(orm, config, systemClock), {
      options: {
        ...DEFAULT_OPTIONS,
        code: 'LIVE1',
        students: 40,
        tutorials: 4,
        tutors: 2,
        taskDefinitions: 2,
        workDefinitions: 1,
        commentsPerTask: 0,
        signInStudents: 0,
      },
      adminUsername: 'admin',
      password: 'bench-live-password',
    });
    unitId = demo.unit.id;
    convenor = demo.convenor;
  },
  async ({ orm, service }) => {
    const user = await orm.em.fork().findOneOrFail(User, { username: convenor });
    const token = await issueToken(orm.em.fork(), user, systemClock.now(), false);
    const taskIds = (
      await db(orm.em.fork())
        .selectFrom('tasks as t')
        .innerJoin('projects as p', 'p.id', 't.project_id')
        .select('t.id')
        .where('p.unit_id', '=', unitId)
        .execute()
    ).map((r) => r.id);

    const before = heap();
    const data: LiveClientsData = { url: `${service}/trpc`, headers: { Username: convenor, 'Auth-Token': token }, unitId, count: SUBSCRIBERS };
    const clients = fork(new URL('./live-clients.child.ts', import.meta.url), {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, LIVE_CLIENTS: JSON.stringify(data) },
    });
    const complete = new Set<number>();
    let started = false;
    let receipts: [number, number][] = [];
    let errors = 0;
    clients.on('message', (message: LiveClientsMessage) => {
      if (message.type === 'started') started = true;
      else if (message.type === 'complete') complete.add(message.taskId);
      else ({ receipts, errors } = message);
    });
    while (!started) await new Promise((r) => setTimeout(r, 20));
    const perSubscription = (heap() - before) / SUBSCRIBERS;

    const committedAt = new Map<number, number>();
    const cpu = process.cpuUsage();
    for (let i = 0; i < EVENTS; i++) {
      const taskId = taskIds[i % taskIds.length];
      await orm.em.fork().transactional(async (em) => {
        await publishTaskEvent(em as Em, 'comment', [taskId]);
        // Just before COMMIT is sent: the time measured includes the commit.
        committedAt.set(taskId, performance.timeOrigin + performance.now());
      });
      await new Promise((r) => setTimeout(r, GAP_MS));
      while (!complete.has(taskId) && performance.timeOrigin + performance.now() - committedAt.get(taskId)! < 5000) await new Promise((r) => setTimeout(r, 5));
    }
    const { user: userCpu, system: systemCpu } = process.cpuUsage(cpu);
    clients.send('report');
    await new Promise((r) => clients.once('exit', r));
    const latencies = receipts.flatMap(([taskId, at]) => (committedAt.has(taskId) ? [at - committedAt.get(taskId)!] : []));

    console.log(
      `live_updates ${SUBSCRIBERS} subscribers x ${EVENTS} events: commit->receive p50 ${quantile(latencies, 0.5).toFixed(1)} ms, ` +
        `p99 ${quantile(latencies, 0.99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms ` +
        `(${latencies.length}/${SUBSCRIBERS * EVENTS} received, ${errors} errors; target p99 <= 1000 ms)`,
    );
    console.log(
      `live_updates server CPU per event: ${((userCpu + systemCpu) / 1000 / EVENTS).toFixed(1)} ms ` +
        `(${((userCpu + systemCpu) / EVENTS / SUBSCRIBERS).toFixed(0)} µs per delivery; includes the publishing transaction)`,
    );
    console.log(`live_updates server heap per open subscription: ${(perSubscription / 1024).toFixed(1)} KiB`);
  },
);
