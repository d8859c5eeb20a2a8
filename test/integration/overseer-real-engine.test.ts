// Automated assessment end to end on a real Docker engine (the one scripts/docker-engine.sh starts,
// or DOCKER_HOST's): a FROM scratch + busybox image built here, uploads run through the real job.
// Where no engine answers, the suite says so in one line and its tests count as skipped.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Docker from 'dockerode';
import { dockerOptions } from '../../src/adapters/docker.ts';
import type { TestEnv } from '../support/env.ts';
import { buildImage, IMAGE, noEngine } from '../support/overseer-engine.ts';
import type { People } from '../support/fixtures.ts';
import { runJobs } from '../support/jobs.ts';
import { assessmentComments, assessments, overseerWorld, storedText, taskStatus, uploadProgram } from '../support/overseer-world.ts';
import { freshEachTest } from '../support/suite.ts';
import type { RawEntry } from '../support/zips.ts';

const test = suite('integration: automated assessment on a real Docker engine');

// The resources every case shares: build checks who it runs as and that the root is read-only,
// run runs the submission (a shell script here, busybox has no python) and judges its answer.
const RESOURCES: RawEntry[] = [
  [
    'build.sh',
    '#!/bin/sh\necho "uid $(id -u)"\ntouch /etc/probe 2>/dev/null && echo "root writable" || echo "root read-only"\necho "build_message: built" > "$1"\n',
  ],
  [
    'run.sh',
    '#!/bin/sh\nanswer=$(sh sandbox/program.py)\necho "answer $answer"\n' +
      'if [ "$answer" = 42 ]; then echo "run_message: correct" > "$1"; else printf "run_message: wrong answer\\nnew_status: fix\\n" > "$1"; exit 1; fi\n',
  ],
];

const reason = await noEngine();
if (reason) {
  console.log(`SKIPPED integration/overseer-real-engine: ${reason}`);
  for (const name of ['passing', 'failing', 'infinite loop', 'memory hog', 'network']) test.skip(name, () => {});
} else {
  let env: TestEnv;
  let people: People;
  let saved: { host: string | undefined; timeoutMs: number };
  test.before(buildImage);
  freshEachTest(test, (world) => ({ env, people } = world));
  test.before.each(() => {
    saved = { host: env.config.docker.host, timeoutMs: env.config.overseer.timeoutMs };
    env.config.docker.host = process.env.DOCKER_HOST || undefined;
  });
  test.after.each(() => {
    env.config.docker.host = saved.host;
    env.config.overseer.timeoutMs = saved.timeoutMs;
  });

  const assess = async (program: string) => {
    const world = await overseerWorld(env, people, IMAGE, RESOURCES);
    const res = await uploadProgram(env, people, world, program);
    assert.is(res.status, 201, res.text);
    const started = Date.now();
    await runJobs(env);
    const [record] = await assessments(env);
    const output = (await storedText(env, record.output_path!)) ?? '';
    if (process.env.SHOW_OVERSEER_OUTPUT) console.log(`\n--- ${Date.now() - started} ms\n${output}`);
    return { world, record, output };
  };

  test('passing: built and run as an unprivileged user on a read-only root, correct answer, task unchanged', async () => {
    const { world, record, output } = await assess('echo 42\n');
    assert.is(record.status, 'done');
    assert.is(output, 'uid 1000\nroot read-only\nexit code: 0\nanswer 42\nexit code: 0\n');
    assert.is((await assessmentComments(env)).at(-1)!.comment, 'built\n\ncorrect');
    assert.is(await taskStatus(env, world), 'ready_for_feedback');
    const left = await new Docker(dockerOptions(process.env.DOCKER_HOST || undefined)).listContainers({
      all: true,
      filters: { name: [`overseer-${record.id}-`] },
    });
    assert.equal(left, [], 'no container is left behind');
  });

  test('failing: the run exits 1, its message is the comment and new_status moves the task to fix and resubmit', async () => {
    const { world, record, output } = await assess('echo 41\n');
    assert.is(record.status, 'done');
    assert.match(output, /answer 41\nexit code: 1\n$/);
    assert.is((await assessmentComments(env)).at(-1)!.comment, 'built\n\nwrong answer');
    assert.is(await taskStatus(env, world), 'fix_and_resubmit');
  });

  test('an infinite loop is stopped at the time limit and reported', async () => {
    env.config.overseer.timeoutMs = 2000;
    const { record, output } = await assess('while :; do :; done\n');
    assert.is(record.status, 'done');
    // Stopped by the 2 s timer (its message), not by anything later; how long it took is the machine's business.
    assert.match(output, /run stopped: time limit of 2 s exceeded\nexit code: 137\n$/);
  });

  test('a memory hog is killed at the memory limit and reported', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: ${#x} is the shell's length of x, in a shell script
    const { record, output } = await assess('x=$(head -c 300000000 /dev/zero | tr "\\0" a)\necho ${#x}\n');
    assert.is(record.status, 'done');
    assert.match(output, /run stopped: memory limit of 100 MB exceeded \(killed, exit code \d+\)/);
  });

  test('a submission that tries the network cannot reach it', async () => {
    // busybox's static wget crashes without a resolver; nc shows the connection itself failing.
    const { output } = await assess('ls /sys/class/net\nnc -w 3 1.1.1.1 80 </dev/null 2>&1 && echo reached || echo unreachable\n');
    assert.match(output, /answer lo\nnc: can't connect to remote host \(1\.1\.1\.1\): Network is unreachable\nunreachable\nexit code: 1\n$/, output);
  });
}

test.run();
