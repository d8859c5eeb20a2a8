// Assessment in steps (docs/assessment-steps.md) end to end on a real Docker engine: the busybox
// image of test/support/overseer-engine.ts, uploads run through the real job, each step in its own
// container. Where no engine answers, the suite says so in one line and its tests count as skipped.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Docker from 'dockerode';
import { dockerOptions } from '../../src/adapters/docker.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { runJobs } from '../support/jobs.ts';
import { buildImage, IMAGE, noEngine } from '../support/overseer-engine.ts';
import {
  addSteps,
  assessmentComments,
  assessments,
  overseerWorld,
  SIMPLE_RESOURCES,
  stepResults,
  taskStatus,
  uploadProgram,
} from '../support/overseer-world.ts';
import { freshEachTest } from '../support/suite.ts';
import type { RawEntry } from '../support/zips.ts';

const test = suite('integration: assessment in steps on a real Docker engine');

// The submission (a shell script: busybox has no python) reads two numbers and prints a sum.
const RESOURCES: RawEntry[] = [...SIMPLE_RESOURCES, ['input.txt', '1 2\n'], ['expected.txt', '3\n']];

const THREE = [
  { name: 'present', display_name: 'Program handed in', run_command: 'test -s program.py && echo found', status_on_success: 'discuss' },
  {
    name: 'sum',
    display_name: 'Adds two numbers',
    run_command: 'sh program.py',
    stdin_input_file: 'input.txt',
    expected_output_file: 'expected.txt',
    feedback_message: 'Your program should print the sum of the two numbers it reads.',
    status_on_failure: 'fix_and_resubmit',
    halt_on_failure: true,
    show_stdout: true,
  },
  { name: 'secret', display_name: 'Hidden tests', run_command: 'echo hidden-check', status_on_success: 'complete' },
];

const reason = await noEngine();
if (reason) {
  console.log(`SKIPPED integration/overseer-steps-real-engine: ${reason}`);
  for (const name of ['three steps', 'all pass', 'timeout']) test.skip(name, () => {});
} else {
  let env: TestEnv;
  let people: People;
  let savedHost: string | undefined;
  test.before(buildImage);
  freshEachTest(test, (world) => ({ env, people } = world));
  test.before.each(() => {
    savedHost = env.config.docker.host;
    env.config.docker.host = process.env.DOCKER_HOST || undefined;
  });
  test.after.each(() => {
    env.config.docker.host = savedHost;
  });

  const assess = async (steps: Record<string, unknown>[], program: string) => {
    const world = await overseerWorld(env, people, IMAGE, RESOURCES);
    await addSteps(env, world.td, steps);
    const res = await uploadProgram(env, people, world, program);
    assert.is(res.status, 201, res.text);
    const started = Date.now();
    await runJobs(env);
    const [record] = await assessments(env);
    const results = await stepResults(env);
    if (process.env.SHOW_OVERSEER_OUTPUT) console.log(`\n--- ${Date.now() - started} ms: ${results.map((r) => `${r.name} ${r.duration_ms} ms`).join(', ')}`);
    return { world, record, results };
  };

  test('three steps: one passes, one fails with feedback and halts, one is skipped; the status follows; the student sees only what the flags allow', async () => {
    const { world, record, results } = await assess(THREE, 'read a b\necho $((a + b + 1))\n');
    assert.equal(
      results.map((r) => [r.name, r.outcome, r.exit_status, r.stdout]),
      [
        ['present', 'passed', 0, 'found\n'],
        ['sum', 'failed', 0, '4\n'],
        ['secret', 'skipped', null, null],
      ],
    );
    assert.equal([results[1].stdin, results[1].expected_output, results[1].feedback_message], ['1 2\n', '3\n', THREE[1].feedback_message]);
    assert.is(record.status, 'done');
    assert.is(await taskStatus(env, world), 'fix_and_resubmit');
    const summary = (await assessmentComments(env)).at(-1)!.comment!;
    assert.is(
      summary,
      'Automated assessment: 1 of 3 steps passed\n- Program handed in: passed\n- Adds two numbers: failed\n' +
        `  ${THREE[1].feedback_message}\n  output:\n    4\n- Hidden tests: skipped`,
    );

    const url = `/api/projects/${world.project}/task_def_id/${world.td}/overseer_assessment/${record.id}/steps`;
    const student = await api(env, 'GET', url, { as: people.student.creds });
    assert.is(student.status, 200, student.text);
    assert.equal(
      student.body.steps.map((s: Record<string, unknown>) => [s.name, s.outcome, s.stdout, s.stdin, s.expected_output]),
      [
        ['present', 'passed', null, null, null],
        ['sum', 'failed', '4\n', null, null],
        ['secret', 'skipped', null, null, null],
      ],
    );
    const staff = await api(env, 'GET', url, { as: people.tutor.creds });
    assert.equal([staff.body.steps[0].stdout, staff.body.steps[1].stdin, staff.body.steps[1].expected_output], ['found\n', '1 2\n', '3\n']);
    const left = await new Docker(dockerOptions(process.env.DOCKER_HOST || undefined)).listContainers({
      all: true,
      filters: { name: [`overseer-${record.id}-`] },
    });
    assert.equal(left, [], 'no container is left behind');
  });

  test('a right answer passes every step and the last step that ran sets the status', async () => {
    const { world, results } = await assess(THREE, 'read a b\necho $((a + b))\n');
    assert.equal(
      results.map((r) => r.outcome),
      ['passed', 'passed', 'passed'],
    );
    assert.is(await taskStatus(env, world), 'complete');
  });

  test("a step that runs past its own time limit is stopped and the next step still runs; inputs can't be rewritten", async () => {
    const { world, results } = await assess(
      [
        { name: 'loop', run_command: 'while :; do :; done', timeout_ms: 1500, feedback_message: 'Too slow', status_on_failure: 'redo' },
        { name: 'tamper', run_command: 'echo 999 > ../inputs/expected.txt' },
        {
          name: 'sum',
          run_command: 'sh program.py',
          stdin_input_file: 'input.txt',
          expected_output_file: 'expected.txt',
          output_comparison: 'whitespace',
          status_on_success: 'discuss',
        },
      ],
      'read a b\necho "$((a + b))   "\necho\n',
    );
    assert.equal(
      results.map((r) => [r.name, r.outcome]),
      [
        ['loop', 'timed_out'],
        ['tamper', 'failed'],
        ['sum', 'passed'],
      ],
    );
    assert.is(results[0].exit_status, 137);
    assert.is(results[0].feedback_message, 'Too slow');
    assert.is(results[2].expected_output, '3\n', 'the expected output is as the resources had it');
    assert.is(await taskStatus(env, world), 'discuss');
  });
}

test.run();
