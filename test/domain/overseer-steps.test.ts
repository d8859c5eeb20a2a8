// The pure rules of assessment steps: output comparison, pass, halt, the run's status, what the
// student may see, the summary comment, a step's settings and the CSV cell.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  feedbackFor,
  haltsAfter,
  isSafeFileName,
  normaliseWhitespace,
  outputMatches,
  parseStepsJson,
  statusOfRun,
  stepOutcome,
  stepProblem,
  summaryComment,
  visibleTexts,
} from '../../src/domain/overseer-steps.ts';

test('exact comparison is byte for byte: a trailing newline or space counts', () => {
  assert.ok(outputMatches('42\n', '42\n', 'exact', false));
  assert.not.ok(outputMatches('42', '42\n', 'exact', false));
  assert.not.ok(outputMatches('42 \n', '42\n', 'exact', false));
  assert.not.ok(outputMatches('42\r\n', '42\n', 'exact', false));
});

test('whitespace comparison ignores trailing spaces, trailing blank lines, CRLF, and collapses runs of spaces and tabs', () => {
  assert.is(normaliseWhitespace('a  b\t\tc  \r\n\n  d\n\n\n'), 'a b c\n\n d');
  assert.ok(outputMatches('total:   42  \r\n\n\n', 'total: 42\n', 'whitespace', false));
  assert.ok(outputMatches('a\tb', 'a b', 'whitespace', false));
  // An empty line inside the text and leading indentation still count.
  assert.not.ok(outputMatches('a\nb\n', 'a\n\nb\n', 'whitespace', false));
  assert.not.ok(outputMatches('a\n', ' a\n', 'whitespace', false));
  assert.not.ok(outputMatches('A\n', 'a\n', 'whitespace', false));
});

test('partial comparison: the expected text need only occur in stdout (normalised for whitespace)', () => {
  assert.ok(outputMatches('noise\nresult 42\nmore\n', 'result 42', 'exact', true));
  assert.not.ok(outputMatches('result  42\n', 'result 42\n', 'exact', true));
  assert.ok(outputMatches('x\nresult   42   \ny', 'result 42\n\n', 'whitespace', true));
  assert.ok(outputMatches('anything', '', 'exact', true));
  assert.not.ok(outputMatches('result 4', 'result 42', 'whitespace', true));
});

test('a step passes when it exited 0 by itself and its stdout matches; a limit is an outcome of its own', () => {
  const rules = { outputComparison: 'exact' as const, partialOutputDiff: false };
  const run = { exitCode: 0, timedOut: false, oomKilled: false, stdout: '42\n', expected: '42\n' };
  assert.is(stepOutcome(run, rules), 'passed');
  assert.is(stepOutcome({ ...run, expected: null }, rules), 'passed');
  assert.is(stepOutcome({ ...run, stdout: '41\n' }, rules), 'failed');
  assert.is(stepOutcome({ ...run, exitCode: 1 }, rules), 'failed');
  assert.is(stepOutcome({ ...run, exitCode: 137, timedOut: true }, rules), 'timed_out');
  assert.is(stepOutcome({ ...run, exitCode: 137, oomKilled: true }, rules), 'out_of_memory');
});

test('halt rules, the last matching status, and feedback only when a step did not pass', () => {
  const flow = (s: Partial<Parameters<typeof haltsAfter>[0]>) => ({
    statusOnSuccess: null,
    statusOnFailure: null,
    haltOnSuccess: false,
    haltOnFailure: false,
    ...s,
  });
  assert.ok(haltsAfter(flow({ haltOnFailure: true }), false));
  assert.not.ok(haltsAfter(flow({ haltOnFailure: true }), true));
  assert.ok(haltsAfter(flow({ haltOnSuccess: true }), true));
  assert.is(
    statusOfRun([
      { flow: flow({ statusOnSuccess: 'complete' }), passed: true },
      { flow: flow({ statusOnFailure: 'fix_and_resubmit', statusOnSuccess: 'discuss' }), passed: false },
      { flow: flow({ statusOnFailure: 'redo' }), passed: true },
      { flow: flow({ statusOnSuccess: 'complete' }), passed: null },
    ]),
    'fix_and_resubmit',
  );
  assert.is(statusOfRun([{ flow: flow({}), passed: true }]), null);
  assert.is(feedbackFor('failed', 'Check the edge cases'), 'Check the edge cases');
  assert.is(feedbackFor('timed_out', 'Too slow'), 'Too slow');
  assert.is(feedbackFor('passed', 'Check the edge cases'), null);
  assert.is(feedbackFor('skipped', 'x'), null);
});

test('the student sees only the flagged texts; staff see all', () => {
  const texts = { stdout: 'out', stdoutSha256: 'a', stdin: 'in', stdinSha256: 'b', expectedOutput: 'exp', expectedOutputSha256: 'c' };
  const flags = { showStdout: true, showStdin: false, showExpectedOutput: false };
  assert.equal(visibleTexts(texts, flags, false), {
    stdout: 'out',
    stdoutSha256: 'a',
    stdin: null,
    stdinSha256: null,
    expectedOutput: null,
    expectedOutputSha256: null,
  });
  assert.equal(visibleTexts(texts, flags, true), texts);
});

test('the summary comment: a line per step, feedback, and only the texts the flags show', () => {
  const base = { showStdout: false, showStdin: false, showExpectedOutput: false, stdout: 'secret', stdin: 'hidden', expectedOutput: 'answer' };
  const text = summaryComment([
    { ...base, title: 'Compiles', outcome: 'passed', feedback: null },
    { ...base, title: 'Sums', outcome: 'failed', feedback: 'Check the sum', showStdout: true, stdout: '41\n' },
    { ...base, title: 'Hidden', outcome: 'skipped', feedback: null },
  ]);
  assert.is(text, 'Automated assessment: 1 of 3 steps passed\n- Compiles: passed\n- Sums: failed\n  Check the sum\n  output:\n    41\n- Hidden: skipped');
  assert.not.match(text, /secret|hidden|answer/);
});

test("a step's settings: names, commands, timeout range and safe file names", () => {
  const ok = { name: 'a', display_name: null, run_command: 'sh x', timeout_ms: 1000, stdin_input_file: 'in.txt', expected_output_file: null };
  assert.is(stepProblem(ok), null);
  assert.is(stepProblem({ ...ok, name: '  ' }), 'Name is empty');
  assert.is(stepProblem({ ...ok, run_command: ' ' }), 'Run command is empty');
  assert.match(stepProblem({ ...ok, timeout_ms: 0 })!, /Timeout ms must be an integer from 1 to 600000/);
  assert.match(stepProblem({ ...ok, timeout_ms: 600_001 })!, /Timeout ms/);
  assert.match(stepProblem({ ...ok, stdin_input_file: '../etc/passwd' })!, /Stdin input file must be a plain file name/);
  assert.match(stepProblem({ ...ok, expected_output_file: '/abs' })!, /Expected output file/);
  for (const bad of ['..', '.', 'a/b', 'a b', '', 'x'.repeat(256)]) assert.not.ok(isSafeFileName(bad), bad);
  for (const good of ['expected.txt', '.hidden', 'in_1-2.dat']) assert.ok(isSafeFileName(good), good);
});

test('the CSV cell: a JSON array of steps with defaults; bad JSON, types, settings and repeated names are refused', () => {
  const [step] = parseStepsJson('[{"name":" compile ","run_command":"sh build.sh"}]');
  assert.equal([step.name, step.timeout_ms, step.output_comparison, step.enabled, step.status_on_success], ['compile', 30000, 'exact', true, null]);
  assert.equal(parseStepsJson('[]'), []);
  assert.throws(() => parseStepsJson('{'), /not JSON/);
  assert.throws(() => parseStepsJson('[{"name":"a"}]'), /overseer_steps 0\.run_command/);
  assert.throws(() => parseStepsJson('[{"name":"a","run_command":"x","status_on_success":"done"}]'), /status_on_success/);
  assert.throws(() => parseStepsJson('[{"name":"a","run_command":"x","timeout_ms":0}]'), /Timeout ms/);
  assert.throws(() => parseStepsJson('[{"name":"a","run_command":"x"},{"name":"a","run_command":"y"}]'), /used twice/);
});

test.run();
