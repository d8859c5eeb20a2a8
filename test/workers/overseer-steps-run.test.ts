// Assessment in steps (docs/assessment-steps.md) through the fake Docker engine: each step in its
// own hardened container with its command, stdin and time limit; the comparison, halt rules,
// results, the task's status, the one summary comment, and what the student may read.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readKept } from '../../src/operations/assessment/run-steps.ts';
import type { TestEnv } from '../support/env.ts';
import { startFakeDocker, type FakeContainer, type FakeDockerEngine } from '../support/fake-docker.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { runJobs } from '../support/jobs.ts';
import {
  addSteps,
  assessmentComments,
  assessments,
  overseerWorld,
  SIMPLE_RESOURCES,
  stepResults,
  storedText,
  taskStatus,
  uploadProgram,
} from '../support/overseer-world.ts';
import { freshEachTest } from '../support/suite.ts';
import { anotherStudent } from '../support/task-world.ts';

const test = suite('worker: run_overseer_assessment in steps through the fake Docker engine');
let env: TestEnv;
let people: People;
let engine: FakeDockerEngine;
let savedHost: string | undefined;

test.before(async () => {
  engine = await startFakeDocker();
});
test.after(async () => {
  await engine.close();
});
freshEachTest(test, (world) => ({ env, people } = world));
test.before.each(() => {
  savedHost = env.config.docker.host;
  env.config.docker.host = engine.host;
  engine.created.length = 0;
  engine.containersDo(() => ({ kind: 'exit', code: 0 }));
});
test.after.each(() => {
  env.config.docker.host = savedHost;
});

const RESOURCES = [...SIMPLE_RESOURCES, ['input.txt', '1 2\n'], ['expected.txt', '3\n']] as [string, string][];
/** The step's run_command, as the container gets it ($1 of its shell). */
const commandOf = (c: FakeContainer) => c.config.Cmd[2];
const positionOf = (c: FakeContainer) => Number(/-step-(\d+)$/.exec(c.name)?.[1]);

const THREE = [
  { name: 'compile', display_name: 'It compiles', run_command: 'sh compile.sh', status_on_success: 'discuss' },
  {
    name: 'sum',
    run_command: 'sh program.py',
    stdin_input_file: 'input.txt',
    expected_output_file: 'expected.txt',
    feedback_message: 'Add the two numbers',
    status_on_failure: 'fix_and_resubmit',
    halt_on_failure: true,
    show_stdout: true,
  },
  { name: 'hidden', run_command: 'sh hidden.sh', status_on_success: 'complete' },
];

async function handIn(steps: Record<string, unknown>[]) {
  const world = await overseerWorld(env, people, 'course/overseer:1', RESOURCES);
  await addSteps(env, world.td, steps);
  const res = await uploadProgram(env, people, world, 'echo 4\n');
  assert.is(res.status, 201, res.text);
  return world;
}

test('three steps: one passes, one fails with feedback and halts, one is skipped; status, results, one comment', async () => {
  let stdin = '';
  engine.containersDo((c) => {
    if (commandOf(c) === 'sh program.py') {
      stdin = readFileSync(join(inputsOf(c), 'input.txt'), 'utf8');
      return { kind: 'exit', code: 0, stdout: '4\n' };
    }
    return { kind: 'exit', code: 0, stdout: 'ok\n', logs: 'a warning\n' };
  });
  const world = await handIn(THREE);
  await runJobs(env);

  const [record] = await assessments(env);
  assert.equal(
    engine.created.map((c) => c.name),
    [`overseer-${record.id}-step-0`, `overseer-${record.id}-step-1`],
    'the skipped step never starts a container',
  );
  assert.equal(engine.containers(), [], 'every container is removed');
  for (const c of engine.created) {
    const h = c.config.HostConfig;
    assert.equal([c.config.User, h.NetworkMode, h.ReadonlyRootfs, h.CapDrop, h.Memory], ['1000:1000', 'none', true, ['ALL'], 100 * 1024 * 1024]);
    assert.match(c.config.Cmd[0], /sh -c "\$1" < "\$2" > "\$3"$/);
    assert.ok(
      (h.Binds as string[]).some((b) => b.endsWith('/home/overseer/work-dir/inputs:ro')),
      'inputs are read-only',
    );
  }
  assert.equal(engine.created[1].config.Cmd.slice(2, 4), ['sh program.py', '/home/overseer/work-dir/inputs/input.txt']);
  assert.equal(engine.created[0].config.Cmd[3], '/dev/null');
  assert.is(stdin, '1 2\n');

  const results = await stepResults(env);
  assert.equal(
    results.map((r) => [r.name, r.outcome, r.pass, r.exit_status, r.feedback_message]),
    [
      ['compile', 'passed', true, 0, null],
      ['sum', 'failed', false, 0, 'Add the two numbers'],
      ['hidden', 'skipped', false, null, null],
    ],
  );
  const sum = results[1];
  assert.equal([sum.stdout, sum.stdin, sum.expected_output, Number(sum.stdout_bytes)], ['4\n', '1 2\n', '3\n', 2]);
  assert.is(sum.stdout_sha256, createHash('sha256').update('4\n').digest('hex'));

  // The last step that ran and names a status for its outcome: sum's failure.
  assert.is(await taskStatus(env, world), 'fix_and_resubmit');
  assert.equal([record.status, record.result_task_status], ['done', 'fix_and_resubmit']);
  const comments = await assessmentComments(env);
  assert.is(comments.length, 2, 'the started comment and one summary');
  const summary = comments[1].comment!;
  assert.is(
    summary,
    'Automated assessment: 1 of 3 steps passed\n- It compiles: passed\n- sum: failed\n  Add the two numbers\n  output:\n    4\n- hidden: skipped',
  );
  assert.is(comments[1].overseer_assessment_id, record.id);
  assert.is(await storedText(env, record.output_path!), `${summary}\n`, 'output.txt, which the student reads, holds only the summary');

  // The results: staff see every text, the student only what show_* allows.
  const url = `/api/projects/${world.project}/task_def_id/${world.td}/overseer_assessment/${record.id}/steps`;
  const staff = await api(env, 'GET', url, { as: people.tutor.creds });
  assert.is(staff.status, 200, staff.text);
  assert.equal([staff.body.steps[1].stdout, staff.body.steps[1].stdin, staff.body.steps[1].expected_output], ['4\n', '1 2\n', '3\n']);
  assert.is(staff.body.steps[0].stdout, 'ok\n');
  const student = await api(env, 'GET', url, { as: people.student.creds });
  assert.is(student.status, 200, student.text);
  assert.equal(
    student.body.steps.map((s: Record<string, unknown>) => [s.name, s.outcome, s.stdout, s.stdin, s.expected_output, s.stdin_sha256]),
    [
      ['compile', 'passed', null, null, null, null],
      ['sum', 'failed', '4\n', null, null, null],
      ['hidden', 'skipped', null, null, null, null],
    ],
  );
  const one = await api(env, 'GET', `${url}/${staff.body.steps[1].id}`, { as: people.student.creds });
  assert.equal(
    one.body.steps.map((s: { name: string }) => s.name),
    ['sum'],
  );
  assert.is((await api(env, 'GET', `${url}/99999`, { as: people.student.creds })).status, 404);
  // Another student of the unit may not read them.
  const other = await anotherStudent(env, world, 'other');
  assert.is((await api(env, 'GET', url, { as: other.actor.creds })).status, 403);
  assert.is((await api(env, 'GET', url.replace(`/${record.id}/`, '/999999/'), { as: people.student.creds })).status, 404);
});

test("a step's own time limit stops only that step: the next one still runs", async () => {
  engine.containersDo((c) => (positionOf(c) === 0 ? { kind: 'hang', stdout: 'partial' } : { kind: 'exit', code: 0, stdout: '3\n' }));
  const world = await handIn([
    { name: 'slow', run_command: 'while :; do :; done', timeout_ms: 300, feedback_message: 'Too slow', status_on_failure: 'redo' },
    { name: 'sum', run_command: 'sh program.py', expected_output_file: 'expected.txt', status_on_success: 'discuss' },
  ]);
  await runJobs(env);
  assert.ok(engine.created[0].killed, 'the slow step was killed');
  const results = await stepResults(env);
  assert.equal(
    results.map((r) => [r.name, r.outcome, r.exit_status, r.feedback_message, r.stdout]),
    [
      ['slow', 'timed_out', 137, 'Too slow', 'partial'],
      ['sum', 'passed', 0, null, '3\n'],
    ],
  );
  assert.is(await taskStatus(env, world), 'discuss');
  assert.match((await assessmentComments(env)).at(-1)!.comment!, /- slow: failed \(time limit\)\n {2}Too slow\n- sum: passed/);
});

test('whitespace comparison and partial output per step; disabled steps do not run; halt on success', async () => {
  engine.containersDo((c) => ({ kind: 'exit', code: 0, stdout: commandOf(c) === 'a' ? '3   \n\n\n' : 'the answer:\n3\nbye\n' }));
  await handIn([
    { name: 'exact', run_command: 'a', expected_output_file: 'expected.txt' },
    { name: 'loose', run_command: 'a', expected_output_file: 'expected.txt', output_comparison: 'whitespace' },
    { name: 'off', run_command: 'a', enabled: false },
    { name: 'within', run_command: 'b', expected_output_file: 'expected.txt', partial_output_diff: true, halt_on_success: true },
    { name: 'after', run_command: 'a' },
  ]);
  await runJobs(env);
  assert.equal(
    (await stepResults(env)).map((r) => [r.name, r.outcome]),
    [
      ['exact', 'failed'],
      ['loose', 'passed'],
      ['within', 'passed'],
      ['after', 'skipped'],
    ],
  );
  assert.is(engine.created.length, 3);
});

test('a missing input file fails its step without running it; a re-run replaces the results; no status named leaves the task', async () => {
  const world = await handIn([
    { name: 'needs', run_command: 'a', stdin_input_file: 'nothere.txt' },
    { name: 'fine', run_command: 'b' },
  ]);
  await runJobs(env);
  const results = await stepResults(env);
  assert.equal(
    results.map((r) => [r.name, r.outcome, r.exit_status, r.feedback_message]),
    [
      ['needs', 'failed', null, "The file 'nothere.txt' is not in the assessment resources or the submission"],
      ['fine', 'passed', 0, null],
    ],
  );
  assert.is(engine.created.length, 1);
  assert.is(await taskStatus(env, world), 'ready_for_feedback');
  const [record] = await assessments(env);
  const again = await api(env, 'PUT', `/api/projects/${world.project}/task_def_id/${world.td}/overseer_assessment/${record.id}/trigger`, {
    as: people.tutor.creds,
    json: {},
  });
  assert.is(again.status, 200, again.text);
  await runJobs(env);
  assert.is((await stepResults(env)).length, 2, 'the re-run replaced its results');
});

test("reading a step's files: a symbolic link (to a file of the worker's machine) is not followed; long texts are cut, hashed whole", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steps-read-'));
  try {
    writeFileSync(join(dir, 'secret'), 'host secret\n');
    symlinkSync(join(dir, 'secret'), join(dir, 'link.stdout'));
    assert.is(await readKept(join(dir, 'link.stdout'), 1024), null);
    assert.is(await readKept(join(dir, 'absent'), 1024), null);
    const big = Buffer.alloc(200 * 1024, 'a');
    writeFileSync(join(dir, 'big'), big);
    const kept = (await readKept(join(dir, 'big'), 100 * 1024))!;
    assert.equal([kept.text.length, kept.head.length, kept.bytes], [64 * 1024, 100 * 1024, 200 * 1024]);
    assert.is(kept.sha256, createHash('sha256').update(big).digest('hex'));
    writeFileSync(join(dir, 'nul'), 'a\0b');
    assert.is((await readKept(join(dir, 'nul'), 1024))!.text, 'a\uFFFDb');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The host folder bound read-only at inputs/. */
function inputsOf(c: FakeContainer): string {
  return (c.config.HostConfig.Binds as string[]).find((b) => b.endsWith(':ro'))!.split(':')[0];
}

test.run();
