import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TASK_STATUSES, type TaskStatus } from '../../schema/enums.ts';
import { classDetails, classStats, gradeWeight, studentScores, workTenths, type AlignedWork } from '../../src/domain/alignment-progress.ts';
import { statistic } from '../../src/domain/statistics.ts';

const test = suite('domain: learning outcome progress (behaviour.md §10)');

const ZERO = { median: 0, lower: 0, upper: 0, min: 0, max: 0 };
const work = (projectId: number, tutorialId: number | null, outcomeId: number, status: TaskStatus, targetGrade: number, ratingSum: number): AlignedWork => ({
  projectId,
  tutorialId,
  outcomeId,
  status,
  targetGrade,
  ratingSum,
});

test('each status weighs as the reference lists, in tenths; target grades weigh 1, 2, 4, 8', () => {
  const expected: Record<TaskStatus, number> = {
    not_started: 0,
    fail: 0,
    working_on_it: 0,
    need_help: 0,
    redo: 0.1,
    feedback_exceeded: 0.1,
    fix_and_resubmit: 0.3,
    time_exceeded: 0.5,
    ready_for_feedback: 0.7,
    discuss: 0.8,
    demonstrate: 0.8,
    complete: 1,
  };
  for (const status of TASK_STATUSES) assert.is(workTenths({ status, targetGrade: 0, ratingSum: 1 }) / 10, expected[status], status);
  assert.equal([0, 1, 2, 3].map(gradeWeight), [1, 2, 4, 8]);
  // rating 3, ready_for_feedback, Distinction: 3 × 0.7 × 4 = 8.4
  assert.is(workTenths({ status: 'ready_for_feedback', targetGrade: 2, ratingSum: 3 }), 84);
});

test('a score is exact in tenths however many tasks add to it (0.1 + 0.2 is 0.3)', () => {
  const { all } = studentScores([work(1, null, 10, 'redo', 0, 1), work(1, null, 10, 'redo', 1, 1)]);
  assert.is(all[0].get(10)! / 10, 0.3);
});

test('statistic: median of odd and even counts, values at ⌊n·3/10⌋ and ⌊n·8/10⌋, zeros without values', () => {
  assert.equal(statistic([]), ZERO);
  assert.equal(statistic([7]), { median: 7, lower: 7, upper: 7, min: 7, max: 7 });
  // n = 4: median (1 + 2) / 2, lower index 1, upper index 3
  assert.equal(statistic([3, 0, 2, 1]), { median: 1.5, lower: 1, upper: 3, min: 0, max: 3 });
  // n = 5: median index 2, lower index 1, upper index 4
  assert.equal(statistic([50, 10, 40, 30, 20]), { median: 30, lower: 20, upper: 50, min: 10, max: 50 });
  // n = 10: median (4 + 5) / 2, lower index 3, upper index 8
  assert.equal(statistic([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]), { median: 4.5, lower: 3, upper: 8, min: 0, max: 9 });
});

test('statistic: the even median rounds half up at one decimal of the decimal value, not of its binary neighbour', () => {
  // (0.1 + 4.6) / 2 computes as 2.3499999999999996; the mean is 2.35, so 2.4.
  assert.is(statistic([0.1, 4.6]).median, 2.4);
  assert.is(statistic([0.1, 0.2]).median, 0.2);
  assert.is(statistic([0.2, 0.4]).median, 0.3);
  assert.is(statistic([1, 2]).median, 1.5);
});

// Outcomes 10 and 20; tutorials 1, 2 and 3.
//   A (tutorial 1): outcome 10 = 3 × 1.0 × 1 + 2 × 0.7 × 2 = 5.8; outcome 20 = 1 × 0.1 × 8 = 0.8
//   B (tutorial 1): outcome 10 = 1 × 0.8 × 1 = 0.8; no work on 20 (counts 0)
//   C (tutorial 2): outcome 10 = 5 × 0 = 0; outcome 20 = 3 × 0.5 × 4 = 6.0
//   D (no tutorial): outcome 10 = 2 × 0.3 × 1 = 0.6
const CLASS: AlignedWork[] = [
  work(100, 1, 10, 'complete', 0, 3),
  work(100, 1, 10, 'ready_for_feedback', 1, 2),
  work(100, 1, 20, 'redo', 3, 1),
  work(101, 1, 10, 'discuss', 0, 1),
  work(102, 2, 10, 'working_on_it', 0, 5),
  work(102, 2, 20, 'time_exceeded', 2, 3),
  work(103, null, 10, 'fix_and_resubmit', 0, 2),
];

test('class_stats: every outcome over every student with aligned work, hand-computed', () => {
  assert.equal(classStats([10, 20], CLASS), {
    // sorted 0, 0.6, 0.8, 5.8
    10: { median: 0.7, lower: 0.6, upper: 5.8, min: 0, max: 5.8 },
    // sorted 0, 0, 0.8, 6
    20: { median: 0.4, lower: 0, upper: 6, min: 0, max: 6 },
  });
  // An outcome nobody has work on is all zeros; no students at all is zeros everywhere.
  assert.equal(classStats([10, 30], CLASS)[30], { median: 0, lower: 0, upper: 0, min: 0, max: 0 });
  assert.equal(classStats([10, 20], []), { 10: ZERO, 20: ZERO });
});

test('class_details: each tutorial of the unit (zeros without data), students without a tutorial only in all', () => {
  assert.equal(classDetails([10, 20], [1, 2, 3], CLASS), {
    1: {
      10: { median: 3.3, lower: 0.8, upper: 5.8, min: 0.8, max: 5.8 },
      20: { median: 0.4, lower: 0, upper: 0.8, min: 0, max: 0.8 },
    },
    2: { 10: ZERO, 20: { median: 6, lower: 6, upper: 6, min: 6, max: 6 } },
    3: { 10: ZERO, 20: ZERO },
    all: classStats([10, 20], CLASS),
  });
});

test('a student whose tasks fall in two tutorials counts in each with those tasks, and once in all', () => {
  const twoStreams = [work(1, 1, 10, 'complete', 0, 1), work(1, 2, 10, 'complete', 0, 2), work(2, 1, 10, 'complete', 0, 5)];
  const details = classDetails([10], [1, 2], twoStreams);
  assert.equal(details[1][10], { median: 3, lower: 1, upper: 5, min: 1, max: 5 });
  assert.equal(details[2][10], { median: 2, lower: 2, upper: 2, min: 2, max: 2 });
  assert.equal(details.all[10], { median: 4, lower: 3, upper: 5, min: 3, max: 5 });
});

test.run();
