import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  hasReached,
  linkProblem,
  pairProblem,
  parsePrerequisitesJson,
  prerequisitePath,
  REACHING_PAIRS,
  unmetMessage,
  type LinkEnd,
} from '../../src/domain/prerequisites.ts';
import { TASK_STATUSES } from '../../src/domain/vocabulary.ts';

const test = suite('domain: task prerequisites');

const end = (id: number, abbreviation: string, extra: Partial<LinkEnd> = {}): LinkEnd => ({
  id,
  unitId: 1,
  abbreviation,
  targetDate: '2026-03-16',
  targetGrade: 0,
  ...extra,
});
const names: Record<number, string> = { 1: 'A', 2: 'B', 3: 'C', 4: 'D' };
const abbreviationOf = (id: number) => names[id]!;

test('reaching a status: the path hand-in → discuss/demonstrate → complete counts forward, sent-back work does not', () => {
  assert.ok(hasReached('complete', 'ready_for_feedback'));
  assert.ok(hasReached('discuss', 'ready_for_feedback'));
  assert.ok(hasReached('demonstrate', 'discuss'));
  assert.ok(hasReached('complete', 'discuss'));
  assert.not.ok(hasReached('ready_for_feedback', 'discuss'));
  assert.not.ok(hasReached('fix_and_resubmit', 'ready_for_feedback'));
  assert.not.ok(hasReached('redo', 'ready_for_feedback'));
  assert.not.ok(hasReached('discuss', 'complete'));
  assert.ok(hasReached('need_help', 'working_on_it'));
  assert.not.ok(hasReached('not_started', 'working_on_it'));
  assert.ok(hasReached('fail', 'fail'));
  assert.not.ok(hasReached('complete', 'fail'));
  for (const status of TASK_STATUSES) {
    assert.ok(hasReached(status, status), `${status} reaches itself`);
    assert.ok(hasReached(status, 'not_started'));
    assert.ok(
      hasReached('complete', status) ===
        ['not_started', 'complete', 'need_help', 'working_on_it', 'ready_for_feedback', 'discuss', 'demonstrate'].includes(status),
      status,
    );
  }
  // The SQL list is the same relation.
  assert.is(REACHING_PAIRS.length, TASK_STATUSES.flatMap((r) => TASK_STATUSES.filter((a) => hasReached(a, r))).length);
});

test('pair rules: self, other unit, later date, higher grade; equal dates and grades are fine', () => {
  assert.is(pairProblem(end(1, 'A'), end(1, 'A')), 'A cannot be a prerequisite of itself');
  assert.match(pairProblem(end(1, 'A'), end(2, 'B', { unitId: 2 }))!, /B belongs to another unit than A/);
  assert.match(pairProblem(end(1, 'A'), end(2, 'B', { targetDate: '2026-03-17' }))!, /B is due later \(2026-03-17\) than A \(2026-03-16\)/);
  assert.match(pairProblem(end(1, 'A', { targetGrade: 1 }), end(2, 'B', { targetGrade: 2 }))!, /B has a higher target grade \(2\) than A \(1\)/);
  assert.is(pairProblem(end(1, 'A', { targetGrade: 2 }), end(2, 'B', { targetGrade: 2, targetDate: '2026-03-16' })), null);
  assert.is(pairProblem(end(1, 'A', { targetGrade: 3 }), end(2, 'B', { targetGrade: 0, targetDate: '2026-03-01' })), null);
});

test('cycles of any length are found, the reverse pair named as such', () => {
  // B needs A, C needs B.
  const links = [
    { task_definition_id: 2, prerequisite_id: 1 },
    { task_definition_id: 3, prerequisite_id: 2 },
  ];
  assert.equal(prerequisitePath(links, 3, 1), [3, 2, 1]);
  assert.is(prerequisitePath(links, 1, 3), null);
  assert.is(linkProblem(end(1, 'A'), end(2, 'B'), links, abbreviationOf), 'B already has A as its prerequisite');
  assert.is(linkProblem(end(1, 'A'), end(3, 'C'), links, abbreviationOf), 'The link would make a cycle of prerequisites: A → C → B → A');
  assert.is(linkProblem(end(4, 'D'), end(3, 'C'), links, abbreviationOf), null);
  assert.is(linkProblem(end(3, 'C'), end(1, 'A'), links, abbreviationOf), null, 'a second path is not a cycle');
  // Cycles through branches: D needs C and A; A needing D closes A → D → A.
  const more = [...links, { task_definition_id: 4, prerequisite_id: 3 }, { task_definition_id: 4, prerequisite_id: 1 }];
  assert.is(linkProblem(end(1, 'A'), end(4, 'D'), more, abbreviationOf), 'D already has A as its prerequisite');
  // The date rule is checked first.
  assert.match(linkProblem(end(1, 'A'), end(3, 'C', { targetDate: '2026-04-01' }), links, abbreviationOf)!, /due later/);
});

test('the CSV cell: a JSON array of {abbreviation, task_status}; status defaults to complete', () => {
  assert.equal(parsePrerequisitesJson('[{"abbreviation":" P1 ","task_status":"discuss"},{"abbreviation":"P2"}]'), [
    { abbreviation: 'P1', task_status: 'discuss' },
    { abbreviation: 'P2', task_status: 'complete' },
  ]);
  assert.equal(parsePrerequisitesJson('[]'), []);
  for (const [text, error] of [
    ['[{', /not valid JSON/],
    ['{"abbreviation":"P1"}', /must be a JSON array/],
    ['[{"task_status":"complete"}]', /entry 1 needs an abbreviation/],
    ['[{"abbreviation":"P1","task_status":"done"}]', /entry 1 has an unknown task_status: done/],
    ['[null]', /entry 1 needs an abbreviation/],
  ] as const) {
    assert.throws(() => parsePrerequisitesJson(text), error, text);
  }
});

test('the refusal names each unmet prerequisite and the status it must reach', () => {
  assert.is(
    unmetMessage([
      { task_definition_id: 1, abbreviation: 'P1', task_status: 'complete' },
      { task_definition_id: 2, abbreviation: 'P2', task_status: 'ready_for_feedback' },
    ]),
    'This task is locked until its prerequisites are met: P1 must reach Complete (complete); P2 must reach Ready for Feedback (ready_for_feedback)',
  );
});

test.run();
