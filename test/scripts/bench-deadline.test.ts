// The deadline bench's rules (scripts/bench/deadline-rules.ts): the steady schedule, the error
// tally, when an attempt counts as held and what runs next, and sums read from a /metrics scrape.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { judge, metricSum, steadySchedule, tallyErrors } from '../../scripts/bench/deadline-rules.ts';

const test = suite('npm run bench -- deadline: schedule, tally, scaling down, metrics');

const bounds = { maxErrorRate: 0.01, drainLimitMs: 600_000, minStudents: 100 };

test('uploads are spread evenly over the window, the first at once and none at its end', () => {
  assert.equal(steadySchedule(4, 60_000), [0, 15_000, 30_000, 45_000]);
  assert.is(steadySchedule(2000, 60_000).length, 2000);
  assert.ok(steadySchedule(2000, 60_000).at(-1)! < 60_000);
});

test('failed uploads are counted by status or socket error, largest first, successes left out', () => {
  assert.equal(tallyErrors([201, 503, 201, 'ECONNRESET', 503, 'timeout', 503]), [
    ['503', 3],
    ['ECONNRESET', 1],
    ['timeout', 1],
  ]);
  assert.equal(tallyErrors([201, 201]), []);
});

test('an attempt is held with few enough failures and every PDF built in time; otherwise half the students run next', () => {
  assert.equal(judge({ students: 2000, failedUploads: 20, drainMs: 5_000 }, bounds), { held: true });
  const tooManyErrors = judge({ students: 2000, failedUploads: 21, drainMs: 5_000 }, bounds);
  assert.equal(tooManyErrors, { held: false, why: '1.1% of the uploads failed (bound 1.0%)', next: 1000 });
  const backlog = judge({ students: 1000, failedUploads: 0, drainMs: undefined }, bounds);
  assert.equal(backlog, { held: false, why: 'the PDFs were not all built 600 s after the last upload', next: 500 });
});

test('below the smallest class the bench gives up instead of halving again', () => {
  const verdict = judge({ students: 150, failedUploads: 150, drainMs: undefined }, bounds);
  assert.is(verdict.held, false);
  assert.is(verdict.held === false && verdict.next, undefined);
});

test('metricSum adds the samples whose labels match, by value or pattern, and ignores comments and other series', () => {
  const scrape = [
    '# HELP job_duration_seconds Jobs',
    '# TYPE job_duration_seconds histogram',
    'job_duration_seconds_bucket{le="0.5",task="accept_submission",outcome="success"} 7',
    'job_duration_seconds_sum{task="accept_submission",outcome="success"} 12.5',
    'job_duration_seconds_sum{task="accept_submission",outcome="failure"} 0.5',
    'job_duration_seconds_sum{task="send_email",outcome="success"} 3',
    'http_request_duration_seconds_count{method="POST",route="/api/projects/:id/task_def_id/:task_definition_id/submission",status_class="2xx"} 2000',
    'http_request_duration_seconds_count{method="POST",route="/api/auth",status_class="2xx"} 1',
    'process_resident_memory_bytes 123456',
  ].join('\n');
  assert.is(metricSum(scrape, 'job_duration_seconds_sum', { task: 'accept_submission' }), 13);
  assert.is(metricSum(scrape, 'job_duration_seconds_sum'), 16);
  assert.is(metricSum(scrape, 'http_request_duration_seconds_count', { method: 'POST', route: /\/submission$/ }), 2000);
  assert.is(metricSum(scrape, 'process_resident_memory_bytes'), 123456);
  assert.is(metricSum(scrape, 'job_duration_seconds_count', { task: 'accept_submission' }), 0);
});

test.run();
