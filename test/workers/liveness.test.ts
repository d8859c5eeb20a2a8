// Worker liveness in one process (workers/liveness.ts), on the test database: heartbeat rows, the
// sweep of silent workers' jobs (named-queue locks included), locks of pools without any row, and a
// worker settling its own jobs whose outcome could not be written. Jobs are locked by hand as
// graphile-worker locks them, so each case is exact; the real processes are in
// test/ops/worker-recovery.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { WorkerEvents } from 'graphile-worker';
import { loadConfig } from '../../src/config.ts';
import { createJobPool } from '../../workers/index.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { startLiveness, trackJobs, type Liveness } from '../../workers/liveness.ts';
import { tcpCut } from '../support/tcp-cut.ts';
import { freshEachTest } from '../support/suite.ts';

const quiet = createLogger({ level: 'silent' });

const test = suite('workers: heartbeats, and the jobs of dead workers or lost outcomes released');
freshEachTest(test, () => {});
let pool: pg.Pool;
let running: Liveness[] = [];
const FAST = { heartbeatSeconds: 1, staleSeconds: 2 };

test.before(() => {
  pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 4 });
});
test.after.each(async () => {
  for (const liveness of running) await liveness.stop();
  running = [];
  await pool.query("delete from graphile_worker._private_job_queues where queue_name like 'liveness-%'");
});
test.after(async () => {
  await pool.end();
});

/** A worker's job events, as graphile-worker emits them, and what liveness learns from them. */
function worker() {
  const events: WorkerEvents = new EventEmitter();
  return { events, jobs: trackJobs(events) };
}

async function start(poolId: string, w = worker()) {
  const liveness = await startLiveness(pool, poolId, w.jobs, FAST, quiet);
  running.push(liveness);
  return { ...w, liveness };
}

/** A queued job, locked by `poolId` `ageSeconds` ago as graphile-worker's get_job locks it (and its named queue). */
async function lockedJob(poolId: string, ageSeconds: number, queue?: string): Promise<string> {
  const { rows } = await pool.query<{ id: string }>('select (graphile_worker.add_job($1, $2::json, queue_name => $3)).id::text as id', [
    'accept_submission',
    '{}',
    queue ?? null,
  ]);
  const id = rows[0].id;
  await pool.query(
    `with j as (update graphile_worker._private_jobs set locked_by = $2, locked_at = now() - make_interval(secs => $3), attempts = attempts + 1
                where id = $1 returning job_queue_id)
     update graphile_worker._private_job_queues q set locked_by = $2, locked_at = now() - make_interval(secs => $3) from j where q.id = j.job_queue_id`,
    [id, poolId, ageSeconds],
  );
  return id;
}

async function job(id: string) {
  const { rows } = await pool.query<{ locked_by: string | null; last_error: string | null; later: boolean; queue_locked_by: string | null }>(
    `select j.locked_by, j.last_error, j.run_at > now() as later, q.locked_by as queue_locked_by
     from graphile_worker._private_jobs j left join graphile_worker._private_job_queues q on q.id = j.job_queue_id where j.id = $1`,
    [id],
  );
  return rows[0];
}

const rows = async () => (await pool.query<{ pool_id: string; pid: number }>('select pool_id, pid from worker_heartbeats order by pool_id')).rows;

async function eventually(check: () => Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) if (await check()) return;
  assert.unreachable(`${what}: not within ${ms / 1000} s`);
}

test('each worker keeps a heartbeat row while it runs and removes it on a clean stop', async () => {
  const { liveness } = await start('pool-me');
  assert.equal(await rows(), [{ pool_id: 'pool-me', pid: process.pid }]);
  const {
    rows: [first],
  } = await pool.query('select seen_at from worker_heartbeats');
  await eventually(async () => (await pool.query('select seen_at from worker_heartbeats')).rows[0].seen_at > first.seen_at, 'the row is refreshed');
  await liveness.stop();
  running = [];
  assert.equal(await rows(), []);
});

test('a silent worker loses its row and its jobs (named queue too), and so do old locks of a pool without a row; a live worker keeps its jobs', async () => {
  await pool.query(
    `insert into worker_heartbeats (pool_id, hostname, pid, started_at, seen_at) values ('pool-dead', 'elsewhere', 4242, now() - interval '1 hour', ` +
      `now() - interval '1 hour')`,
  );
  const dead = await lockedJob('pool-dead', 3600, 'liveness-dead');
  const orphan = await lockedJob('pool-gone', 3600);
  const live = await lockedJob('pool-live', 3600, 'liveness-live');
  const liveWorker = worker();
  liveWorker.events.emit('job:start', { job: { id: live } } as never); // the live worker is running it

  await start('pool-live', liveWorker);
  assert.ok(
    (await rows()).some((r) => r.pool_id === 'pool-dead'),
    'a worker that has just connected judges nobody yet',
  );
  await start('pool-me');
  await eventually(async () => (await job(dead)).locked_by === null, 'the silent worker is swept');
  await eventually(async () => (await job(orphan)).locked_by === null, 'the old lock of a pool without a row is released');
  assert.equal(await job(dead), { locked_by: null, last_error: null, later: false, queue_locked_by: null });
  assert.equal(await rows(), [
    { pool_id: 'pool-live', pid: process.pid },
    { pool_id: 'pool-me', pid: process.pid },
  ]);
  assert.equal(await job(live), { locked_by: 'pool-live', last_error: null, later: false, queue_locked_by: 'pool-live' });
});

test('a worker cut off from the database is presumed dead by the others, and checks in again once its link returns', async () => {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  const link = await tcpCut(Number(url.port));
  url.port = String(link.port);
  const cutPool = createJobPool(url.toString(), 2, quiet);
  try {
    const held = await lockedJob('pool-cut', 0);
    const cut = worker();
    cut.events.emit('job:start', { job: { id: held } } as never);
    const cutOff = await startLiveness(cutPool, 'pool-cut', cut.jobs, FAST, quiet);
    await start('pool-me');
    await link.cut();
    await eventually(async () => (await job(held)).locked_by === null, "the silent worker's job is released");
    assert.equal(
      (await rows()).map((r) => r.pool_id),
      ['pool-me'],
    );
    await link.restore();
    await eventually(async () => (await rows()).length === 2, 'the worker checks in again');
    await cutOff.stop();
  } finally {
    await cutPool.end();
    await link.close();
  }
});

test('a worker settles its own jobs whose outcome could not be written, and keeps the one it runs', async () => {
  const succeeded = await lockedJob('pool-me', 10, 'liveness-ok');
  const failed = await lockedJob('pool-me', 10);
  const neverReached = await lockedJob('pool-me', 10);
  const runningNow = await lockedJob('pool-me', 10);
  const w = worker();
  for (const id of [succeeded, failed, runningNow]) w.events.emit('job:start', { job: { id } } as never);
  w.events.emit('job:complete', { job: { id: succeeded }, error: null } as never);
  w.events.emit('job:complete', { job: { id: failed }, error: new Error('connect ECONNREFUSED') } as never);
  const me = await start('pool-me', w);

  await eventually(async () => (await job(failed)).locked_by === null && (await job(neverReached)).locked_by === null, 'the lost outcomes are settled');
  await eventually(async () => (await job(succeeded)) === undefined, 'the success is recorded');
  assert.equal(await job(failed), { locked_by: null, last_error: 'connect ECONNREFUSED', later: true, queue_locked_by: null });
  assert.equal(await job(neverReached), { locked_by: null, last_error: null, later: false, queue_locked_by: null });
  const { rows: queues } = await pool.query("select locked_by from graphile_worker._private_job_queues where queue_name = 'liveness-ok'");
  assert.equal(queues, [{ locked_by: null }], 'the named queue of the completed job is free');
  assert.is((await job(runningNow)).locked_by, 'pool-me');
  assert.is(me.jobs.finished.size, 0, 'nothing is remembered once settled');
});

test("the defaults keep a dead worker's jobs within the two-minute promise, and a stale interval under two heartbeats is refused", () => {
  const { heartbeatSeconds, staleSeconds } = loadConfig({}).workerLiveness;
  assert.equal({ heartbeatSeconds, staleSeconds }, { heartbeatSeconds: 5, staleSeconds: 30 });
  assert.ok(staleSeconds + heartbeatSeconds < 60, 'released within a minute, leaving the rest of the two minutes for the rerun');
  assert.throws(
    () => loadConfig({ WORKER_HEARTBEAT_SECONDS: '10', WORKER_STALE_SECONDS: '15' }),
    /WORKER_STALE_SECONDS must be at least twice WORKER_HEARTBEAT_SECONDS/,
  );
  assert.throws(() => loadConfig({ WORKER_HEARTBEAT_SECONDS: '0' }), /WORKER_HEARTBEAT_SECONDS must be at least 1/);
});

test.run();
