import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { z } from 'zod';
import { OverseerImage } from '../../schema/index.ts';
import { jobQueue } from '../../src/db/jobs.ts';
import { createContext } from '../../src/trpc/context.ts';
import { createCallerFactory, publicMutation, router } from '../../src/trpc/core.ts';
import { dockerEngine, type DockerEngine } from '../../src/adapters/docker.ts';
import { TEST_NOW, type TestEnv } from '../support/env.ts';
import { startFakeDocker, type FakeDockerEngine } from '../support/fake-docker.ts';
import type { People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { runJobs as runQueuedJobs } from '../support/jobs.ts';

const test = suite('worker: pull_overseer_image through a Docker engine');
let env: TestEnv;
let people: People;
let engine: FakeDockerEngine;

test.before(async () => {
  engine = await startFakeDocker();
});

test.after(async () => {
  await engine.close();
});

freshEachTest(test, (world) => ({ env, people } = world));
test.before.each(() => {
  engine.requests.length = 0;
  engine.behave({ kind: 'succeed' });
});

const URL = '/api/admin/overseer_images';
const LATER = new Date(TEST_NOW.getTime() + 10 * 60 * 1000);

interface JobRow {
  task_identifier: string;
  payload: unknown;
  key: string | null;
}

async function jobs(): Promise<JobRow[]> {
  return env.orm.em
    .fork()
    .execute<JobRow[]>(
      "select t.identifier as task_identifier, j.payload::jsonb - '_requestId' as payload, j.key from graphile_worker._private_jobs j " +
        'join graphile_worker._private_tasks t on t.id = j.task_id order by j.id',
    );
}

const runJobs = (docker: DockerEngine = dockerEngine(engine.host)) => runQueuedJobs(env, docker);

async function addImage(name: string, tag: string): Promise<number> {
  const res = await api(env, 'POST', URL, { as: people.admin.creds, json: { overseer_image: { name, tag } } });
  assert.is(res.status, 201);
  return res.body.id;
}

async function stored(id: number) {
  return env.orm.em.fork().findOneOrFail(OverseerImage, { id });
}

test('a pull requested through REST is queued, pulled by the engine and recorded as pulled', async () => {
  const id = await addImage('Python 3', 'lmsdoubtfire/overseer-python3:3.12');
  const put = await api(env, 'PUT', `${URL}/${id}/pull_image`, { as: people.admin.creds, hyphenHeader: true });
  assert.is(put.status, 200);
  assert.equal([put.body.status, put.body.pulled_image_status, put.body.last_pulled_date], ['pending', 'pending', null]);
  assert.equal(await jobs(), [{ task_identifier: 'pull_overseer_image', payload: { imageId: id }, key: `pull_overseer_image:${id}` }]);
  assert.equal(engine.requests, [], 'nothing reaches the engine until the worker runs');

  env.clock.set(LATER);
  await runJobs();

  assert.equal(engine.pulls(), [{ fromImage: 'lmsdoubtfire/overseer-python3', tag: '3.12' }]);
  const row = await stored(id);
  assert.is(row.pullStatus, 'pulled');
  assert.match(row.pullOutput ?? '', 'Pulling from lmsdoubtfire/overseer-python3');
  assert.match(row.pullOutput ?? '', 'Digest: sha256:');
  assert.match(row.pullOutput ?? '', 'Status: Downloaded newer image for lmsdoubtfire/overseer-python3:3.12');
  assert.equal(row.lastPulledAt?.toISOString(), LATER.toISOString());
  assert.equal(row.pullRequestedAt?.toISOString(), TEST_NOW.toISOString());
  assert.equal(await jobs(), [], 'the job is done and gone');

  const list = await api(env, 'GET', URL, { as: people.convenor.creds });
  assert.equal(list.body, [
    {
      id,
      name: 'Python 3',
      tag: 'lmsdoubtfire/overseer-python3:3.12',
      status: 'pulled',
      pulled_image_status: 'success',
      pulled_image_text: row.pullOutput,
      last_pulled_date: LATER.toISOString(),
    },
  ]);
});

test('a reference without a tag pulls latest, and a registry with a port is kept in fromImage', async () => {
  const plain = await addImage('Plain', 'overseer/plain');
  const registry = await addImage('Local registry', 'localhost:5000/school/overseer/java');
  for (const id of [plain, registry]) {
    assert.is((await api(env, 'PUT', `${URL}/${id}/pull_image`, { as: people.admin.creds })).status, 200);
  }
  assert.is((await jobs()).length, 2);
  await runJobs();
  assert.equal(
    engine.pulls().sort((a, b) => a.fromImage.localeCompare(b.fromImage)),
    [
      { fromImage: 'localhost:5000/school/overseer/java', tag: 'latest' },
      { fromImage: 'overseer/plain', tag: 'latest' },
    ],
  );
  assert.equal([(await stored(plain)).pullStatus, (await stored(registry)).pullStatus], ['pulled', 'pulled']);
});

test('an error inside the progress stream is recorded as failed with its message; the last good pull date stays', async () => {
  const id = await addImage('Python 3', 'lmsdoubtfire/overseer-python3:3.12');
  await api(env, 'PUT', `${URL}/${id}/pull_image`, { as: people.admin.creds });
  await runJobs();
  const firstPull = (await stored(id)).lastPulledAt?.toISOString();
  assert.is(firstPull, TEST_NOW.toISOString());

  engine.behave({ kind: 'stream-error', message: 'failed to register layer: no space left on device' });
  env.clock.set(LATER);
  const again = await api(env, 'PUT', `${URL}/${id}/pull_image`, { as: people.admin.creds });
  assert.equal([again.body.status, again.body.last_pulled_date], ['pending', firstPull]);
  await runJobs();

  const row = await stored(id);
  assert.equal([row.pullStatus, row.pullOutput], ['failed', 'failed to register layer: no space left on device']);
  assert.is(row.lastPulledAt?.toISOString(), firstPull);
  const list = await api(env, 'GET', URL, { as: people.admin.creds });
  assert.equal(
    [list.body[0].status, list.body[0].pulled_image_status, list.body[0].pulled_image_text, list.body[0].last_pulled_date],
    ['failed', 'failed', 'failed to register layer: no space left on device', firstPull],
  );
  assert.equal(await jobs(), [], 'a failed pull is recorded, not retried');
});

test('an HTTP error from the engine (pull access denied) is recorded as failed with the engine message', async () => {
  const id = await addImage('Private', 'private/overseer:1');
  engine.behave({
    kind: 'http-error',
    status: 404,
    message: "pull access denied for private/overseer, repository does not exist or may require 'docker login'",
  });
  await api(env, 'PUT', `${URL}/${id}/pull_image`, { as: people.admin.creds });
  await runJobs();
  assert.equal(engine.pulls(), [{ fromImage: 'private/overseer', tag: '1' }]);
  const row = await stored(id);
  assert.is(row.pullStatus, 'failed');
  assert.match(row.pullOutput ?? '', 'HTTP code 404');
  assert.match(row.pullOutput ?? '', 'pull access denied for private/overseer');
  assert.is(row.lastPulledAt ?? null, null);
});

test('an unreachable engine is recorded as a failed pull, not a crashed job', async () => {
  const id = await addImage('Python 3', 'overseer/python');
  await api(env, 'PUT', `${URL}/${id}/pull_image`, { as: people.admin.creds });
  const closed = await startFakeDocker();
  await closed.close();
  await runJobs(dockerEngine(closed.host));
  const row = await stored(id);
  assert.is(row.pullStatus, 'failed');
  assert.match(row.pullOutput ?? '', 'ECONNREFUSED');
  assert.equal(await jobs(), []);
});

test('an engine that accepts the pull and never answers is given up on and recorded as failed', async () => {
  const id = await addImage('Python 3', 'overseer/python');
  await api(env, 'PUT', `${URL}/${id}/pull_image`, { as: people.admin.creds });
  engine.behave({ kind: 'silent' });
  // The pull deadline is far off: only the idle timeout can end the pull, and its message says so.
  await runJobs(dockerEngine(engine.host, undefined, { idleMs: 300, pullMs: 600_000 }));
  const row = await stored(id);
  assert.is(row.pullStatus, 'failed');
  assert.match(row.pullOutput ?? '', 'stopped answering');
  assert.equal(await jobs(), []);
});

test('a pull whose progress stream stalls ends at the pull deadline and is recorded as failed', async () => {
  const id = await addImage('Python 3', 'overseer/python');
  await api(env, 'PUT', `${URL}/${id}/pull_image`, { as: people.admin.creds });
  engine.behave({ kind: 'stall' });
  await runJobs(dockerEngine(engine.host, undefined, { idleMs: 60_000, pullMs: 400 }));
  const row = await stored(id);
  assert.is(row.pullStatus, 'failed');
  assert.match(row.pullOutput ?? '', 'did not finish within');
  assert.equal(await jobs(), []);
});

test('the registry proxy setting prefixes what the engine is asked to pull', async () => {
  const id = await addImage('Python 3', 'overseer/python:3');
  await api(env, 'PUT', `${URL}/${id}/pull_image`, { as: people.admin.creds });
  await runJobs(dockerEngine(engine.host, 'mirror.example.edu:5000/'));
  assert.equal(engine.pulls(), [{ fromImage: 'mirror.example.edu:5000/overseer/python', tag: '3' }]);
  assert.is((await stored(id)).pullStatus, 'pulled');
});

test('refused pull requests queue no job and reach no engine', async () => {
  const id = await addImage('Python 3', 'overseer/python');
  for (const who of [people.student, people.tutor, people.convenor]) {
    assert.is((await api(env, 'PUT', `${URL}/${id}/pull_image`, { as: who.creds })).status, 403);
  }
  assert.is((await api(env, 'PUT', `${URL}/${id}/pull_image`)).status, 419);
  assert.is((await api(env, 'PUT', `${URL}/${id + 1000}/pull_image`, { as: people.admin.creds })).status, 404);
  env.config.overseerEnabled = false;
  assert.is((await api(env, 'PUT', `${URL}/${id}/pull_image`, { as: people.admin.creds })).status, 403);
  env.config.overseerEnabled = true;

  assert.equal(await jobs(), []);
  assert.is((await stored(id)).pullStatus ?? null, null);
  await runJobs();
  assert.equal(engine.requests, []);
});

test('an image deleted before the worker runs is skipped; a changed tag is pulled as it now reads', async () => {
  const gone = await addImage('Gone', 'overseer/gone');
  const moved = await addImage('Moved', 'overseer/moved:1');
  await api(env, 'PUT', `${URL}/${gone}/pull_image`, { as: people.admin.creds });
  await api(env, 'PUT', `${URL}/${moved}/pull_image`, { as: people.admin.creds });
  assert.is((await api(env, 'DELETE', `${URL}/${gone}`, { as: people.admin.creds })).status, 204);
  const retag = await api(env, 'PUT', `${URL}/${moved}`, { as: people.admin.creds, json: { overseer_image: { tag: 'overseer/moved:2' } } });
  assert.is(retag.body.status, null);
  await runJobs();
  assert.equal(engine.pulls(), [{ fromImage: 'overseer/moved', tag: '2' }]);
  assert.is((await stored(moved)).pullStatus, 'pulled');
  assert.equal(await jobs(), []);
});

test('a result for a tag that changed while the engine was pulling is dropped', async () => {
  const id = await addImage('Moving', 'overseer/moving:1');
  await api(env, 'PUT', `${URL}/${id}/pull_image`, { as: people.admin.creds });
  const slowEngine: DockerEngine = {
    async pull(reference) {
      // An admin points the image elsewhere while this pull is under way.
      const res = await api(env, 'PUT', `${URL}/${id}`, { as: people.admin.creds, json: { overseer_image: { tag: 'overseer/moving:2' } } });
      assert.is(res.status, 200);
      return `pulled ${reference}`;
    },
  };
  await runJobs(slowEngine);
  const row = await stored(id);
  assert.equal([row.tag, row.pullStatus ?? null, row.pullOutput ?? null, row.lastPulledAt ?? null], ['overseer/moving:2', null, null, null]);
});

test('a job enqueued inside a transaction that then fails is rolled back with it', async () => {
  const em = env.orm.em.fork();
  let failure: unknown;
  try {
    await em.transactional(async (tx) => {
      await jobQueue(tx).add('pull_overseer_image', { imageId: 1 }, { jobKey: 'pull_overseer_image:1' });
      assert.is((await tx.execute<{ n: string }[]>('select count(*) as n from graphile_worker._private_jobs'))[0].n, '1');
      throw new Error('boom after enqueueing');
    });
  } catch (error) {
    failure = error;
  }
  assert.instance(failure, Error);
  assert.equal(await jobs(), []);
});

test('a mutation procedure that fails after ctx.jobs.add leaves no job; one that succeeds leaves its job', async () => {
  const probe = router({
    enqueue: publicMutation.input(z.object({ fail: z.boolean() })).mutation(async ({ ctx, input }) => {
      await ctx.jobs.add('pull_overseer_image', { imageId: 7 }, { jobKey: 'pull_overseer_image:7' });
      if (input.fail) throw new Error('fails after enqueueing');
      return true;
    }),
  });
  const call = () => createCallerFactory(probe)(createContext(env.services, {}));
  let failure: unknown;
  try {
    await call().enqueue({ fail: true });
  } catch (error) {
    failure = error;
  }
  assert.ok(failure, 'the failing call rejects');
  assert.equal(await jobs(), []);
  assert.is(await call().enqueue({ fail: false }), true);
  assert.equal(await jobs(), [{ task_identifier: 'pull_overseer_image', payload: { imageId: 7 }, key: 'pull_overseer_image:7' }]);
});

test.run();
