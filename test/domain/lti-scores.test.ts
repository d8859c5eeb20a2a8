import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TASK_STATUSES, type TaskStatus } from '../../schema/enums.ts';
import { lineItemResourceId, scoreFor, scoreMayChange, scoresUrl } from '../../src/domain/lti-scores.ts';

const test = suite('domain: the grade passback mapping (task state to AGS score)');

const plain = { isGraded: false, maxQualityPts: 0 };
const graded = { isGraded: true, maxQualityPts: 0 };
const starred = { isGraded: false, maxQualityPts: 5 };
const task = (status: TaskStatus, grade: number | null = null, qualityPts = -1) => ({ status, grade, qualityPts });

test('complete on a plain definition is 100 out of 100, fully graded', () => {
  assert.equal(scoreFor(task('complete'), plain), { activityProgress: 'Completed', gradingProgress: 'FullyGraded', scoreGiven: 100, scoreMaximum: 100 });
});

test('a graded definition scores the floor of the grade band: F 0, P 50, C 60, D 70, HD 80', () => {
  const scores = [-1, 0, 1, 2, 3].map((g) => scoreFor(task('complete', g), graded).scoreGiven);
  assert.equal(scores, [0, 50, 60, 70, 80]);
  // Complete without a grade (a definition made graded later) waits for it.
  assert.equal(scoreFor(task('complete', null), graded), { activityProgress: 'Completed', gradingProgress: 'PendingManual' });
});

test('quality points score the points out of the maximum; unrated waits for the rating; graded wins', () => {
  assert.is(scoreFor(task('complete', null, 3), starred).scoreGiven, 60);
  assert.is(scoreFor(task('complete', null, 0), starred).scoreGiven, 0);
  assert.is(scoreFor(task('complete', null, 2), { isGraded: false, maxQualityPts: 3 }).scoreGiven, 66.67);
  assert.equal(scoreFor(task('complete', null, -1), starred), { activityProgress: 'Completed', gradingProgress: 'PendingManual' });
  assert.is(scoreFor(task('complete', 2, 1), { isGraded: true, maxQualityPts: 5 }).scoreGiven, 70);
});

test('fail is 0 fully graded, whatever the definition', () => {
  for (const terms of [plain, graded, starred]) {
    assert.equal(scoreFor(task('fail', 3, 5), terms), { activityProgress: 'Completed', gradingProgress: 'FullyGraded', scoreGiven: 0, scoreMaximum: 100 });
  }
});

test('every other status carries progress and no score', () => {
  const expected: Record<string, [string, string]> = {
    not_started: ['Initialized', 'NotReady'],
    working_on_it: ['InProgress', 'NotReady'],
    need_help: ['InProgress', 'NotReady'],
    ready_for_feedback: ['Submitted', 'PendingManual'],
    time_exceeded: ['Submitted', 'PendingManual'],
    fix_and_resubmit: ['InProgress', 'Pending'],
    redo: ['InProgress', 'Pending'],
    discuss: ['Completed', 'PendingManual'],
    demonstrate: ['Completed', 'PendingManual'],
    feedback_exceeded: ['Completed', 'PendingManual'],
  };
  assert.equal(Object.keys(expected).length + 2, TASK_STATUSES.length, 'every status is covered (with complete and fail)');
  for (const [status, [activityProgress, gradingProgress]] of Object.entries(expected)) {
    assert.equal(scoreFor(task(status as TaskStatus, 3, 5), graded), { activityProgress, gradingProgress }, status);
  }
});

test('a score may change with the status, grade or quality points only', () => {
  assert.ok(scoreMayChange(task('ready_for_feedback'), task('complete')));
  assert.ok(scoreMayChange(task('complete', 1), task('complete', 2)));
  assert.ok(scoreMayChange(task('complete', null, 1), task('complete', null, 2)));
  assert.not.ok(scoreMayChange(task('complete', 1, 2), task('complete', 1, 2)));
});

test('the scores endpoint is the line item path plus /scores, query kept; resource ids name the definition', () => {
  assert.is(scoresUrl('https://lms.example.edu/api/lti/courses/7/line_items/12'), 'https://lms.example.edu/api/lti/courses/7/line_items/12/scores');
  assert.is(
    scoresUrl('https://lms.example.edu/mod/lti/services.php/2/lineitems/5/lineitem?type_id=3'),
    'https://lms.example.edu/mod/lti/services.php/2/lineitems/5/lineitem/scores?type_id=3',
  );
  assert.is(scoresUrl('https://lms.example.edu/lineitems/1/'), 'https://lms.example.edu/lineitems/1/scores');
  assert.is(lineItemResourceId(42), 'task-definition-42');
});

test.run();
