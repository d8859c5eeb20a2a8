// run_overseer_assessment against the loopback fake Docker engine: the real adapter's requests,
// the sandbox on disk, the outputs stored, the record, the task and the comments.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JobHelpers } from 'graphile-worker';
import { db } from '../../src/db/kysely.ts';
import type { WorkerServices } from '../../workers/services.ts';
import { runOverseerAssessment } from '../../workers/tasks/run-overseer-assessment.ts';
import { storageKeys } from '../../src/storage/index.ts';
import type { TestEnv } from '../support/env.ts';
import { startFakeDocker, type FakeContainer, type FakeDockerEngine } from '../support/fake-docker.ts';
import { travelTo, type People } from '../support/fixtures.ts';
import { runJobs } from '../support/jobs.ts';
import { assessmentComments, assessments, overseerWorld, queued, storedText, taskStatus, uploadProgram } from '../support/overseer-world.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('worker: run_overseer_assessment through the fake Docker engine');
let env: TestEnv;
let people: People;
let engine: FakeDockerEngine;
let saved: { host: string | undefined; timeoutMs: number };

test.before(async () => {
  engine = await startFakeDocker();
});
test.after(async () => {
  await engine.close();
});
freshEachTest(test, (world) => ({ env, people } = world));
test.before.each(() => {
  saved = { host: env.config.docker.host, timeoutMs: env.config.overseer.timeoutMs };
  env.config.docker.host = engine.host;
  engine.created.length = 0;
  engine.containersDo(() => ({ kind: 'exit', code: 0 }));
});
test.after.each(() => {
  env.config.docker.host = saved.host;
  env.config.overseer.timeoutMs = saved.timeoutMs;
});

const mode = (c: FakeContainer) => (c.name.endsWith('-build') ? 'build' : 'run');
const sandboxOf = (c: FakeContainer) => (c.config.HostConfig.Binds as string[])[0].split(':')[0];

async function handIn(source = 'print(1)\n') {
  const world = await overseerWorld(env, people, 'course/overseer:1');
  const res = await uploadProgram(env, people, world, source);
  assert.is(res.status, 201, res.text);
  return world;
}

test('an upload records the assessment as queued, with its job and the started comment, in the upload', async () => {
  const world = await handIn();
  const [record] = await assessments(env);
  assert.is(record.status, 'queued');
  const [entry] = await db(env.orm.em.fork()).selectFrom('task_submissions').select('submitted_at').execute();
  assert.is(new Date(record.submission_timestamp).getTime(), new Date(entry.submitted_at).getTime());
  assert.is((await queued(env, 'run_overseer_assessment')).length, 1);
  const [comment] = await assessmentComments(env);
  assert.equal([comment.comment, comment.overseer_assessment_id, comment.recipient_id], ['Automated Assessment Started', record.id, people.student.user.id]);
  assert.is(await taskStatus(env, world), 'ready_for_feedback');
});

test('a second upload within the hour (the same history entry, re-dated) is assessed once, with its files', async () => {
  const world = await handIn('print(1)\n');
  await travelTo(env, people, new Date(env.clock.now().getTime() + 10 * 60 * 1000));
  assert.is((await uploadProgram(env, people, world, 'print(2)\n')).status, 201);
  const records = await assessments(env);
  assert.is(records.length, 1);
  const [entry] = await db(env.orm.em.fork()).selectFrom('task_submissions').select('submitted_at').execute();
  assert.is(new Date(records[0].submission_timestamp).getTime(), new Date(entry.submitted_at).getTime());
  assert.is((await queued(env, 'run_overseer_assessment')).length, 1);
  let program = '';
  engine.containersDo((c) => {
    program ||= readFileSync(join(sandboxOf(c), 'program.py'), 'utf8');
    return { kind: 'exit', code: 0 };
  });
  await runJobs(env);
  assert.is(program, 'print(2)\n');
  assert.is(engine.created.length, 2);
  assert.is((await assessments(env))[0].status, 'done');
});

test('no record and no job when overseer is off, or the definition has no resources', async () => {
  env.config.overseerEnabled = false;
  await handIn();
  assert.equal(await assessments(env), []);
  env.config.overseerEnabled = true;
  assert.equal(await queued(env, 'run_overseer_assessment'), []);
});

test('success: build then run in hardened containers, output stored and readable, new_status applied, comment, containers removed', async () => {
  let sandbox: string[] = [];
  engine.containersDo((c) => {
    if (mode(c) === 'build') {
      sandbox = readdirSync(sandboxOf(c)).sort();
      return { kind: 'exit', code: 0, text: 'compiled\n', yaml: 'build_message: Built fine\n', changes: [{ Path: '/tmp/cache', Kind: 1 }] };
    }
    return {
      kind: 'exit',
      code: 0,
      text: 'all 3 tests pass\n',
      yaml: 'run_message: "3/3 tests pass"\nnew_status: fix\n',
      changes: [{ Path: '/home', Kind: 0 }],
    };
  });
  const world = await handIn();
  await runJobs(env);

  assert.equal(sandbox, ['build.sh', 'program.py', 'run.sh']);
  const [record] = await assessments(env);
  assert.equal(
    engine.created.map((c) => c.name),
    [`overseer-${record.id}-build`, `overseer-${record.id}-run`],
  );
  assert.equal(engine.containers(), [], 'every container is removed');
  for (const c of engine.created) {
    const h = c.config.HostConfig;
    assert.equal(
      [c.config.User, h.NetworkMode, h.ReadonlyRootfs, h.CapDrop, h.SecurityOpt, h.Memory, h.MemorySwap, h.NanoCpus, h.PidsLimit],
      ['1000:1000', 'none', true, ['ALL'], ['no-new-privileges'], 100 * 1024 * 1024, 100 * 1024 * 1024, 1e9, 256],
    );
    assert.ok((h.Tmpfs as Record<string, string>)['/tmp']);
    assert.match(
      c.config.Cmd.join(' '),
      new RegExp(`^chmod u\\+x sandbox/${mode(c)}\\.sh && sandbox/${mode(c)}\\.sh output/[0-9a-f]+\\.yaml >> output/[0-9a-f]+\\.txt$`),
    );
  }

  assert.equal(
    [record.status, record.output_path, record.result_task_status],
    ['done', storageKeys.assessmentOutput(record.id, 'output.txt'), 'fix_and_resubmit'],
  );
  assert.is(await storedText(env, record.output_path!), 'compiled\nexit code: 0\nall 3 tests pass\nexit code: 0\n');
  assert.match((await storedText(env, storageKeys.assessmentOutput(record.id, 'output.yaml')))!, /new_status: fix\nexit_code: 0\n$/);
  assert.is(await storedText(env, storageKeys.assessmentOutput(record.id, 'build-diff.txt')), 'A /tmp/cache\n');
  assert.is(await storedText(env, storageKeys.assessmentOutput(record.id, 'run-diff.txt')), 'C /home\n');
  assert.is(await taskStatus(env, world), 'fix_and_resubmit');
  const comments = await assessmentComments(env);
  assert.equal(
    comments.map((c) => c.comment),
    ['Automated Assessment Started', 'Built fine\n\n3/3 tests pass'],
  );
  assert.is(comments[1].author_id, people.tutor.user.id);
  assert.equal(await queued(env, 'run_overseer_assessment'), [], 'the job is complete');

  // The readers show the run's output; staff also see the file-system changes.
  const base = `/api/projects/${world.project}/task_def_id/${world.td}/submissions`;
  const student = await env.app.inject({
    method: 'GET',
    url: `${base}/latest`,
    headers: { Username: people.student.creds.username, 'Auth-Token': people.student.creds.token },
  });
  assert.is(student.statusCode, 200, student.body);
  assert.is(student.body, 'compiled\nexit code: 0\nall 3 tests pass\nexit code: 0\n');
  const tutor = await env.app.inject({
    method: 'GET',
    url: `${base}/latest`,
    headers: { Username: people.tutor.creds.username, 'Auth-Token': people.tutor.creds.token },
  });
  assert.match(tutor.body, /build-diff\.txt\nA \/tmp\/cache\n/);
  assert.match(tutor.body, /run-diff\.txt\nC \/home\n/);
});

test('new_status is ignored unless the task is ready for feedback', async () => {
  engine.containersDo((c) => (mode(c) === 'run' ? { kind: 'exit', code: 0, yaml: 'new_status: complete\n' } : { kind: 'exit', code: 0 }));
  const world = await handIn();
  await db(env.orm.em.fork()).updateTable('tasks').set({ status: 'discuss' }).execute();
  await runJobs(env);
  assert.is(await taskStatus(env, world), 'discuss');
  assert.is((await assessments(env))[0].status, 'done');
});

test('a failing build skips the run step and is reported with its exit code', async () => {
  engine.containersDo(() => ({ kind: 'exit', code: 2, text: 'syntax error\n', yaml: 'build_message: Your code does not compile\n' }));
  const world = await handIn();
  await runJobs(env);
  assert.equal(engine.created.map(mode), ['build']);
  const [record] = await assessments(env);
  assert.is(record.status, 'done');
  assert.is(await storedText(env, record.output_path!), 'syntax error\nexit code: 2\n');
  assert.is(await taskStatus(env, world), 'ready_for_feedback');
  assert.is((await assessmentComments(env))[1].comment, 'Your code does not compile');
  assert.equal(engine.containers(), []);
});

test('a script that writes megabytes: the first 1 MiB of its output is kept, with a line saying where it was cut', async () => {
  const line = `${'x'.repeat(1023)}\n`;
  engine.containersDo(() => ({ kind: 'exit', code: 1, text: line.repeat(3 * 1024) }));
  await handIn();
  await runJobs(env);
  const [record] = await assessments(env);
  const text = (await storedText(env, record.output_path!))!;
  assert.is(text, `${line.repeat(1024)}\n[output cut at ${1024 * 1024} bytes]\nexit code: 1\n`);
});

test('a step that runs past the time limit is killed, removed and reported; the job completes', async () => {
  env.config.overseer.timeoutMs = 300;
  engine.containersDo((c) => (mode(c) === 'build' ? { kind: 'exit', code: 0 } : { kind: 'hang', text: 'looping\n' }));
  await handIn();
  await runJobs(env);
  const run = engine.created.find((c) => mode(c) === 'run')!;
  assert.ok(run.killed, 'the engine was told to kill it');
  assert.equal(engine.containers(), []);
  const [record] = await assessments(env);
  assert.is(record.status, 'done');
  assert.is(await storedText(env, record.output_path!), 'exit code: 0\nlooping\nrun stopped: time limit of 0.3 s exceeded\nexit code: 137\n');
  assert.is((await assessmentComments(env))[1].comment, 'run stopped: time limit of 0.3 s exceeded');
  assert.equal(await queued(env, 'run_overseer_assessment'), []);
});

test('a step killed at the memory limit is reported as out of memory (exit 137), not retried', async () => {
  engine.containersDo((c) => (mode(c) === 'build' ? { kind: 'exit', code: 0 } : { kind: 'oom' }));
  await handIn();
  await runJobs(env);
  const [record] = await assessments(env);
  assert.is(record.status, 'done');
  assert.match((await storedText(env, record.output_path!))!, /run stopped: memory limit of 100 MB exceeded \(killed, exit code 137\)\nexit code: 137\n$/);
  assert.equal(await queued(env, 'run_overseer_assessment'), []);
  assert.equal(engine.containers(), []);
});

test('a container left by a dead worker is removed before the run starts again', async () => {
  await handIn();
  const [record] = await assessments(env);
  const res = await fetch(`${engine.host.replace('tcp:', 'http:')}/v1.41/containers/create?name=overseer-${record.id}-build`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Image: 'x', Cmd: ['true'], HostConfig: {} }),
  });
  assert.is(res.status, 201);
  await runJobs(env);
  assert.is(engine.created.length, 3);
  assert.equal(engine.containers(), []);
  assert.is((await assessments(env))[0].status, 'done');
});

test('a worker that stops mid-step kills and removes the container and hands the job back (the record stays queued)', async () => {
  engine.containersDo(() => ({ kind: 'hang' }));
  await handIn();
  const [record] = await assessments(env);
  const stopping = new AbortController();
  const helpers = { abortSignal: stopping.signal, job: { attempts: 1, max_attempts: 3 }, logger: { info() {} } } as unknown as JobHelpers;
  const running = runOverseerAssessment({ ...env.services, docker: undefined as never } as unknown as WorkerServices)({ assessmentId: record.id }, helpers);
  setTimeout(() => stopping.abort(), 200);
  const error = await Promise.resolve(running).then(
    () => null,
    (e: Error) => e,
  );
  assert.is(error?.name, 'AbortError');
  assert.ok(engine.created[0].killed);
  assert.equal(engine.containers(), []);
  assert.is((await assessments(env))[0].status, 'queued');
});

test('an engine that cannot be reached: retried, then recorded as queue_failed with the reason', async () => {
  env.config.docker.host = 'tcp://127.0.0.1:9';
  await handIn();
  await runJobs(env);
  const [job] = await queued(env, 'run_overseer_assessment');
  assert.is(job.attempts, 1);
  assert.match(job.last_error ?? '', /ECONNREFUSED/);
  assert.is((await assessments(env))[0].status, 'queued');
  for (let attempt = 2; attempt <= 3; attempt++) {
    await env.orm.em.fork().execute('update graphile_worker._private_jobs set run_at = now()');
    await runJobs(env);
  }
  assert.equal(await queued(env, 'run_overseer_assessment'), []);
  const [record] = await assessments(env);
  assert.is(record.status, 'queue_failed');
  assert.match((await storedText(env, record.output_path!))!, /^The assessment could not run: .*ECONNREFUSED/);
});

test.run();
