import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { runJobs } from '../support/jobs.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST /api/admin/jobs');
let env: TestEnv;
let people: People;

freshEachTest(test, (world) => ({ env, people } = world));

const URL = '/api/admin/jobs';
const KEYS = [
  'attempts',
  'created_at',
  'id',
  'key',
  'last_error',
  'locked_at',
  'locked_by',
  'locked_by_dead',
  'locked_by_hostname',
  'locked_by_pid',
  'max_attempts',
  'queue_name',
  'run_at',
  'state',
  'task_identifier',
  'updated_at',
];

async function sql<T>(query: string, params: unknown[] = []): Promise<T[]> {
  return env.orm.em.fork().execute<T[]>(query, params);
}

/** Queues a harmless job through graphile-worker's own add_job; its id. */
async function addJob(maxAttempts = 5): Promise<number> {
  const [row] = await sql<{ id: string }>(`select (graphile_worker.add_job('delete_expired_tokens', '{}'::json, max_attempts => ?)).id::text as id`, [
    maxAttempts,
  ]);
  return Number(row.id);
}

/** graphile-worker's own way to give up on a job (what a last failed attempt leaves, too). */
async function failForGood(id: number, error: string): Promise<void> {
  await sql('select graphile_worker.permanently_fail_jobs(array[?]::bigint[], ?)', [id, error]);
}

/** What a worker's fetch leaves on a job it took `secondsAgo` ago. */
async function lockAs(id: number, poolId: string, secondsAgo: number): Promise<void> {
  await sql('update graphile_worker._private_jobs set locked_by = ?, locked_at = now() - make_interval(secs => ?), attempts = attempts + 1 where id = ?', [
    poolId,
    secondsAgo,
    id,
  ]);
}

/** A worker process that checked in just now (workers/liveness.ts). */
async function liveWorker(poolId: string): Promise<void> {
  await sql(`insert into worker_heartbeats (pool_id, hostname, pid, started_at, seen_at) values (?, 'worker-host', 4242, now(), now())`, [poolId]);
}

async function jobRow(id: number) {
  const [row] = await sql<{ attempts: number; locked_by: string | null; run_at_not_future: boolean }>(
    'select attempts, locked_by, run_at <= now() as run_at_not_future from graphile_worker.jobs where id = ?',
    [id],
  );
  return row;
}

test('only an Admin sees the jobs: 200; Convenor, Tutor and Student 403; no credentials 419', async () => {
  const admin = await api(env, 'GET', URL, { as: people.admin.creds });
  assert.is(admin.status, 200);
  assert.equal(admin.body, []);
  for (const who of [people.convenor, people.tutor, people.student]) {
    const res = await api(env, 'GET', URL, { as: who.creds });
    assert.is(res.status, 403, who.user.username);
    assert.equal(res.body, { error: 'Not authorised to see background jobs' });
    const retry = await api(env, 'PUT', `${URL}/1/retry`, { as: who.creds });
    assert.is(retry.status, 403, who.user.username);
    assert.equal(retry.body, { error: 'Not authorised to retry a background job' });
  }
  assert.is((await api(env, 'GET', URL)).status, 419);
  assert.is((await api(env, 'PUT', `${URL}/1/retry`)).status, 419);
});

test('a job that failed for good is listed with its last error; waiting jobs only when asked for', async () => {
  const failed = await addJob(3);
  await failForGood(failed, 'Error: the PDF renderer ran out of memory');
  const waiting = await addJob();

  const res = await api(env, 'GET', URL, { as: people.admin.creds });
  assert.is(res.status, 200);
  assert.is(res.body.length, 1);
  const [job] = res.body;
  assert.equal(Object.keys(job).sort(), KEYS);
  assert.equal(
    {
      id: job.id,
      task: job.task_identifier,
      state: job.state,
      attempts: job.attempts,
      max: job.max_attempts,
      error: job.last_error,
      locked: [job.locked_by, job.locked_at, job.locked_by_dead],
    },
    {
      id: failed,
      task: 'delete_expired_tokens',
      state: 'failed',
      attempts: 3,
      max: 3,
      error: 'Error: the PDF renderer ran out of memory',
      locked: [null, null, null],
    },
  );
  assert.ok(!Number.isNaN(Date.parse(job.run_at)) && !Number.isNaN(Date.parse(job.created_at)));

  const asked = await api(env, 'GET', URL, { as: people.admin.creds, query: { state: 'waiting' } });
  assert.equal(
    asked.body.map((j: { id: number; state: string }) => [j.id, j.state]),
    [[waiting, 'waiting']],
  );
  const both = await api(env, 'GET', URL, { as: people.admin.creds, query: { state: 'failed,waiting', limit: '1' } });
  assert.equal(
    both.body.map((j: { id: number }) => j.id),
    [waiting],
    'newest first, cut at the limit',
  );
});

test('a job locked by a worker that is gone shows as stuck; one held by a live worker as running', async () => {
  const stuck = await addJob();
  await lockAs(stuck, 'pool-killed', 3600);
  const running = await addJob();
  await liveWorker('pool-alive');
  await lockAs(running, 'pool-alive', 3600);

  const res = await api(env, 'GET', URL, { as: people.admin.creds });
  assert.equal(
    res.body.map((j: Record<string, unknown>) => [j.id, j.state, j.locked_by, j.locked_by_dead, j.attempts]),
    [[stuck, 'stuck', 'pool-killed', true, 1]],
  );
  assert.type(res.body[0].locked_at, 'string');

  const live = await api(env, 'GET', URL, { as: people.admin.creds, query: { state: 'running' } });
  assert.equal(
    live.body.map((j: Record<string, unknown>) => [j.id, j.state, j.locked_by, j.locked_by_dead, j.locked_by_hostname, j.locked_by_pid]),
    [[running, 'running', 'pool-alive', false, 'worker-host', 4242]],
  );
});

test('retrying a failed job makes it runnable now with its attempts back, and it then runs', async () => {
  const id = await addJob(2);
  await failForGood(id, 'boom');

  const res = await api(env, 'PUT', `${URL}/${id}/retry`, { as: people.admin.creds });
  assert.is(res.status, 200);
  assert.equal([res.body.id, res.body.state, res.body.attempts, res.body.max_attempts, res.body.last_error], [id, 'waiting', 0, 2, 'boom']);
  assert.equal(await jobRow(id), { attempts: 0, locked_by: null, run_at_not_future: true });
  assert.equal((await api(env, 'GET', URL, { as: people.admin.creds })).body, []);

  await runJobs(env);
  assert.is(await jobRow(id), undefined, 'the job ran and graphile-worker removed it');
});

test('retrying a stuck job frees the dead worker’s lock, and the job runs', async () => {
  const stuck = await addJob();
  await lockAs(stuck, 'pool-killed', 3600);

  const res = await api(env, 'PUT', `${URL}/${stuck}/retry`, { as: people.admin.creds });
  assert.is(res.status, 200);
  assert.equal([res.body.state, res.body.locked_by, res.body.locked_by_dead, res.body.attempts], ['waiting', null, null, 0]);
  assert.equal(await jobRow(stuck), { attempts: 0, locked_by: null, run_at_not_future: true });

  await runJobs(env);
  assert.is(await jobRow(stuck), undefined);
});

test('a job a live worker is running is not retried: 400, and the worker keeps it', async () => {
  const running = await addJob();
  await liveWorker('pool-alive');
  await lockAs(running, 'pool-alive', 10);

  const refused = await api(env, 'PUT', `${URL}/${running}/retry`, { as: people.admin.creds });
  assert.is(refused.status, 400);
  assert.equal(refused.body, { error: `Job ${running} is running on a live worker (pool-alive); it cannot be retried` });
  assert.equal(await jobRow(running), { attempts: 1, locked_by: 'pool-alive', run_at_not_future: true });
});

test('an unknown job is 404; a bad filter or id is 400', async () => {
  const missing = await api(env, 'PUT', `${URL}/987654/retry`, { as: people.admin.creds });
  assert.is(missing.status, 404);
  assert.equal(missing.body, { error: 'Unable to find requested Job' });
  for (const query of [{ state: 'broken' }, { state: 'failed,nope' }, { limit: '0' }, { limit: 'many' }, { limit: '5000' }]) {
    const res = await api(env, 'GET', URL, { as: people.admin.creds, query });
    assert.is(res.status, 400, JSON.stringify(query));
    assert.type(res.body.error, 'string');
  }
  assert.is((await api(env, 'PUT', `${URL}/0/retry`, { as: people.admin.creds })).status, 400);
});

test.run();
