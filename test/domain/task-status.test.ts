import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TASK_STATUSES, type TaskStatus } from '../../schema/enums.ts';
import {
  CLOSED,
  isStaffAssigned,
  NOT_PROPAGATED,
  PASSING,
  PROPAGATION_SKIPS,
  READY_OR_COMPLETE,
  STATUS_NAMES,
  statusForTrigger,
  statusId,
  statusOfId,
  STUDENT_STATUSES,
  TRIGGER_WORDS,
  UPLOAD_SKIPS,
} from '../../src/domain/task-status.ts';

const test = suite('domain: the twelve task statuses, their groups and trigger aliases');

// behaviour.md §4.1, spelled out here rather than read back from the module under test.
const CATALOGUE: [number, TaskStatus, string][] = [
  [1, 'not_started', 'Not Started'],
  [2, 'complete', 'Complete'],
  [3, 'need_help', 'Need Help'],
  [4, 'working_on_it', 'Working On It'],
  [5, 'fix_and_resubmit', 'Fix and Resubmit'],
  [6, 'feedback_exceeded', 'Feedback Exceeded'],
  [7, 'redo', 'Redo'],
  [8, 'discuss', 'Discuss'],
  [9, 'ready_for_feedback', 'Ready for Feedback'],
  [10, 'demonstrate', 'Demonstrate'],
  [11, 'fail', 'Fail'],
  [12, 'time_exceeded', 'Time Exceeded'],
];

const sorted = (set: Iterable<TaskStatus>) => [...set].sort();

test('the catalogue: ids 1..12 in the original order, with their display names', () => {
  assert.is(TASK_STATUSES.length, 12);
  for (const [id, key, name] of CATALOGUE) {
    assert.is(statusId(key), id, key);
    assert.is(statusOfId(id), key, String(id));
    assert.is(STATUS_NAMES[key], name, key);
  }
});

test('an unknown id means not started', () => {
  for (const id of [0, -1, 13, 99, 1.5, Number.NaN]) assert.is(statusOfId(id), 'not_started', String(id));
});

test('staff-assigned statuses are the eight with id above 4: ready for feedback in, complete out', () => {
  const staff = TASK_STATUSES.filter(isStaffAssigned);
  assert.equal(
    sorted(staff),
    sorted(['fix_and_resubmit', 'feedback_exceeded', 'redo', 'discuss', 'ready_for_feedback', 'demonstrate', 'fail', 'time_exceeded']),
  );
  assert.not.ok(isStaffAssigned('complete'));
});

test('the groups the rules test', () => {
  assert.equal(sorted(CLOSED), sorted(['complete', 'discuss', 'demonstrate', 'feedback_exceeded', 'fail']));
  assert.equal(sorted(READY_OR_COMPLETE), sorted(['complete', 'discuss', 'demonstrate', 'ready_for_feedback']));
  assert.equal(sorted(STUDENT_STATUSES), sorted(['not_started', 'need_help', 'working_on_it']));
  assert.equal(sorted(PASSING), sorted(['complete', 'discuss', 'demonstrate']));
  assert.equal(sorted(NOT_PROPAGATED), sorted(['working_on_it', 'need_help']));
  assert.equal(sorted(PROPAGATION_SKIPS), sorted(['complete', 'feedback_exceeded', 'fail']));
  assert.equal(sorted(UPLOAD_SKIPS), sorted(['discuss', 'demonstrate', 'complete', 'feedback_exceeded', 'fail']));
});

// Every alias of behaviour.md §4.1.
const ALIASES: Record<string, TaskStatus> = {
  complete: 'complete',
  fix_and_resubmit: 'fix_and_resubmit',
  'fix and resubmit': 'fix_and_resubmit',
  fix: 'fix_and_resubmit',
  f: 'fix_and_resubmit',
  do_not_resubmit: 'feedback_exceeded',
  'do not resubmit': 'feedback_exceeded',
  feedback_exceeded: 'feedback_exceeded',
  'feedback exceeded': 'feedback_exceeded',
  redo: 'redo',
  need_help: 'need_help',
  'need help': 'need_help',
  working_on_it: 'working_on_it',
  'working on it': 'working_on_it',
  discuss: 'discuss',
  d: 'discuss',
  demonstrate: 'demonstrate',
  demo: 'demonstrate',
  'ready for feedback': 'ready_for_feedback',
  ready_for_feedback: 'ready_for_feedback',
  'ready to mark': 'ready_for_feedback',
  ready_to_mark: 'ready_for_feedback',
  rtm: 'ready_for_feedback',
  rff: 'ready_for_feedback',
  fail: 'fail',
  not_started: 'not_started',
  'not started': 'not_started',
  ns: 'not_started',
  'time exceeded': 'time_exceeded',
  time_exceeded: 'time_exceeded',
};

test('every alias names its status, in any case and with surrounding space', () => {
  for (const [word, status] of Object.entries(ALIASES)) {
    assert.is(statusForTrigger(word), status, word);
    assert.is(statusForTrigger(word.toUpperCase()), status, word.toUpperCase());
    assert.is(statusForTrigger(`  ${word}\t`), status, `padded ${word}`);
  }
  assert.equal([...TRIGGER_WORDS].sort(), Object.keys(ALIASES).sort());
});

test("words that are not aliases name nothing (the spec's completed and in_progress included)", () => {
  for (const word of ['', ' ', 'completed', 'in_progress', 'ready', 'fixandresubmit', 'do-not-resubmit', 'working-on-it', 'hd', 'x']) {
    assert.is(statusForTrigger(word), undefined, JSON.stringify(word));
  }
});

test.run();
