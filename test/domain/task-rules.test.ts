import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TASK_STATUSES, type TaskStatus } from '../../schema/enums.ts';
import {
  assess,
  canExtend,
  clampExtensionRequest,
  dueDay,
  endOfDayAnywhereOnEarth,
  grantExtension,
  GRADE_LETTERS,
  GRADE_NAMES,
  gradeRequired,
  isLate,
  parseGrade,
  qualityPtsError,
  submit,
  trigger,
  weeksCanExtend,
  type TaskState,
  type TaskTerms,
} from '../../src/domain/task-rules.ts';
import { mayTrigger, type TaskActor } from '../../src/policy/task-triggers.ts';

const test = suite('domain: task rules (triggers, submit, assess, deadlines, extensions, grades)');

const TERMS: TaskTerms = {
  targetDate: '2026-03-16',
  deadline: '2026-04-13',
  isGraded: false,
  maxQualityPts: 0,
  restrictStatusUpdates: false,
  extensionWeeksOnResubmit: 0,
};
const terms = (extra: Partial<TaskTerms> = {}): TaskTerms => ({ ...TERMS, ...extra });

const FRESH: TaskState = {
  status: 'not_started',
  extensions: 0,
  timesAssessed: 0,
  grade: null,
  qualityPts: -1,
  submissionDate: null,
  assessmentDate: null,
  completionDate: null,
};
const state = (extra: Partial<TaskState> = {}): TaskState => ({ ...FRESH, ...extra });
const at = (iso: string) => new Date(iso);

// ---- Anywhere on earth ------------------------------------------------------------------------

test('a day ends anywhere on earth at 11:59:59.999 UTC the next day, across months and leap days', () => {
  assert.is(endOfDayAnywhereOnEarth('2026-03-16').toISOString(), '2026-03-17T11:59:59.999Z');
  assert.is(endOfDayAnywhereOnEarth('2026-03-31').toISOString(), '2026-04-01T11:59:59.999Z');
  assert.is(endOfDayAnywhereOnEarth('2026-12-31').toISOString(), '2027-01-01T11:59:59.999Z');
  assert.is(endOfDayAnywhereOnEarth('2028-02-28').toISOString(), '2028-02-29T11:59:59.999Z');
});

test('late means after that moment: both sides of the boundary, with and without extensions', () => {
  assert.not.ok(isLate(at('2026-03-16T00:00:00Z'), TERMS, 0));
  assert.not.ok(isLate(at('2026-03-17T11:59:59.999Z'), TERMS, 0));
  assert.ok(isLate(at('2026-03-17T12:00:00.000Z'), TERMS, 0));
  // One week granted: the due day is 03-23.
  assert.not.ok(isLate(at('2026-03-24T11:59:59.999Z'), TERMS, 1));
  assert.ok(isLate(at('2026-03-24T12:00:00.000Z'), TERMS, 1));
  // Past the deadline the extension stops counting: due is the deadline.
  assert.not.ok(isLate(at('2026-04-14T11:59:59.999Z'), TERMS, 9));
  assert.ok(isLate(at('2026-04-14T12:00:00.000Z'), TERMS, 9));
});

test('the due day: the target date, plus granted weeks, never past the deadline', () => {
  assert.is(dueDay(TERMS, 0), '2026-03-16');
  assert.is(dueDay(TERMS, 1), '2026-03-23');
  assert.is(dueDay(TERMS, 3), '2026-04-06');
  assert.is(dueDay(TERMS, 4), '2026-04-13');
  assert.is(dueDay(TERMS, 5), '2026-04-13');
  // A deadline that is not a whole number of weeks away caps the last week.
  assert.is(dueDay(terms({ deadline: '2026-03-20' }), 1), '2026-03-20');
  // No extension: the target date, even when a (bad) deadline precedes it.
  assert.is(dueDay(terms({ deadline: '2026-03-10' }), 0), '2026-03-16');
});

// ---- Extension arithmetic ---------------------------------------------------------------------

test('weeks that can still be granted round up; none once the extended date reaches the deadline', () => {
  assert.is(weeksCanExtend(TERMS, 0), 4);
  assert.is(weeksCanExtend(TERMS, 1), 3);
  assert.is(weeksCanExtend(TERMS, 3), 1);
  assert.is(weeksCanExtend(TERMS, 4), 0);
  assert.ok(weeksCanExtend(TERMS, 5) <= 0);
  assert.is(weeksCanExtend(terms({ deadline: '2026-04-14' }), 0), 5);
  assert.is(weeksCanExtend(terms({ deadline: '2026-03-17' }), 0), 1);
  assert.is(weeksCanExtend(terms({ deadline: '2026-03-16' }), 0), 0);
  assert.ok(canExtend(TERMS, 0));
  assert.ok(canExtend(TERMS, 3));
  assert.not.ok(canExtend(TERMS, 4));
  assert.not.ok(canExtend(terms({ deadline: '2026-03-16' }), 0));
  assert.ok(canExtend(terms({ deadline: '2026-03-17' }), 0));
});

test('a request is clamped to what can be granted; zero, negative and nothing-left are refused (item 24)', () => {
  assert.equal(clampExtensionRequest(2, TERMS, 0), { ok: true, weeks: 2 });
  assert.equal(clampExtensionRequest(4, TERMS, 0), { ok: true, weeks: 4 });
  assert.equal(clampExtensionRequest(10, TERMS, 0), { ok: true, weeks: 4 });
  assert.equal(clampExtensionRequest(10, TERMS, 3), { ok: true, weeks: 1 });
  assert.equal(clampExtensionRequest(0, TERMS, 0), { ok: false, error: 'Extension weeks can not be 0.' });
  assert.is(clampExtensionRequest(-1, TERMS, 0).ok, false);
  assert.equal(clampExtensionRequest(1, TERMS, 4), { ok: false, error: 'Extensions cannot be granted beyond task deadline.' });
  assert.equal(clampExtensionRequest(1, terms({ deadline: '2026-03-16' }), 0), { ok: false, error: 'Extensions cannot be granted beyond task deadline.' });
});

test('a grant adds at most the weeks left, and nothing at the deadline', () => {
  const two = grantExtension(state({ status: 'working_on_it' }), 2, TERMS);
  assert.is(two.state.extensions, 2);
  assert.is(two.extensionGranted, 2);
  assert.is(two.state.status, 'working_on_it');
  assert.equal(two.notes, []);
  const clamped = grantExtension(state({ extensions: 2 }), 5, TERMS);
  assert.is(clamped.state.extensions, 4);
  assert.is(clamped.extensionGranted, 2);
  const none = grantExtension(state({ extensions: 4 }), 1, TERMS);
  assert.is(none.state.extensions, 4);
  assert.is(none.extensionGranted, 0);
  assert.is(grantExtension(state(), 0, TERMS).extensionGranted, 0);
});

test('items 21/22: late work (target a week ago, due in a week) granted 2 weeks is ready for feedback again, and nothing more can be granted', () => {
  const now = at('2026-03-10T09:00:00Z');
  const t = terms({ targetDate: '2026-03-03', deadline: '2026-03-17' });
  const late = submit(state({ status: 'working_on_it' }), now, t);
  assert.is(late.state.status, 'time_exceeded');
  assert.is(weeksCanExtend(t, 0), 2);
  const request = clampExtensionRequest(2, t, late.state.extensions);
  assert.equal(request, { ok: true, weeks: 2 });
  const granted = grantExtension(late.state, 2, t);
  assert.is(granted.state.extensions, 2);
  assert.is(granted.state.status, 'ready_for_feedback');
  assert.equal(granted.notes, [{ status: 'ready_for_feedback', by: 'actor' }]);
  assert.is(weeksCanExtend(t, granted.state.extensions), 0);
  assert.not.ok(canExtend(t, granted.state.extensions));
});

test('a time-exceeded task stays so when the extension does not cover its submission; other statuses never move', () => {
  const t = terms({ targetDate: '2026-03-03', deadline: '2026-03-31' });
  const submitted = at('2026-03-20T09:00:00Z');
  const short = grantExtension(state({ status: 'time_exceeded', submissionDate: submitted }), 1, t);
  assert.is(short.state.status, 'time_exceeded');
  assert.is(short.state.extensions, 1);
  assert.equal(short.notes, []);
  const covering = grantExtension(state({ status: 'time_exceeded', submissionDate: submitted }), 3, t);
  assert.is(covering.state.status, 'ready_for_feedback');
  const fixing = grantExtension(state({ status: 'fix_and_resubmit', submissionDate: submitted }), 3, t);
  assert.is(fixing.state.status, 'fix_and_resubmit');
});

// ---- Who may trigger what (§4.2) --------------------------------------------------------------

// Spelled out from behaviour.md §4.1–4.2, not read back from the module.
const STAFF_ASSIGNED: TaskStatus[] = ['fix_and_resubmit', 'feedback_exceeded', 'redo', 'discuss', 'ready_for_feedback', 'demonstrate', 'fail', 'time_exceeded'];
const CLOSED_TO_STUDENTS: TaskStatus[] = ['complete', 'discuss', 'demonstrate', 'feedback_exceeded', 'fail'];
const ANYONE_MAY_SET: TaskStatus[] = ['ready_for_feedback', 'not_started', 'need_help', 'working_on_it'];

function expected(actor: TaskActor | null, current: TaskStatus, target: TaskStatus, restricted: boolean): string {
  if (actor === null) return 'no_role';
  if (actor === 'Tutor') return 'ok';
  if (restricted && STAFF_ASSIGNED.includes(current)) return 'restricted';
  if (CLOSED_TO_STUDENTS.includes(current)) return 'closed';
  return ANYONE_MAY_SET.includes(target) ? 'ok' : 'staff_only';
}

test('mayTrigger: every actor × current status × target × restriction (1,152 cases)', () => {
  let cases = 0;
  for (const actor of ['Student', 'Tutor', 'GroupMember', null] as const) {
    for (const current of TASK_STATUSES) {
      for (const target of TASK_STATUSES) {
        for (const restricted of [false, true]) {
          const check = mayTrigger(actor, current, target, { restrictStatusUpdates: restricted });
          const got = check.ok ? 'ok' : check.reason;
          assert.is(got, expected(actor, current, target, restricted), `${actor} ${current} -> ${target} restricted=${restricted}`);
          cases++;
        }
      }
    }
  }
  assert.is(cases, 1152);
});

test('mayTrigger, the cases people meet: students hand in and ask for help, only staff assess, restriction locks staff statuses', () => {
  const open = { restrictStatusUpdates: false };
  const locked = { restrictStatusUpdates: true };
  assert.ok(mayTrigger('Student', 'working_on_it', 'ready_for_feedback', open).ok);
  assert.ok(mayTrigger('Student', 'fix_and_resubmit', 'ready_for_feedback', open).ok);
  assert.equal(mayTrigger('Student', 'fix_and_resubmit', 'ready_for_feedback', locked), { ok: false, reason: 'restricted' });
  assert.equal(mayTrigger('Student', 'ready_for_feedback', 'working_on_it', locked), { ok: false, reason: 'restricted' });
  assert.ok(mayTrigger('Student', 'working_on_it', 'need_help', locked).ok);
  assert.equal(mayTrigger('Student', 'complete', 'working_on_it', open), { ok: false, reason: 'closed' });
  assert.equal(mayTrigger('GroupMember', 'ready_for_feedback', 'complete', open), { ok: false, reason: 'staff_only' });
  assert.ok(mayTrigger('Tutor', 'complete', 'fix_and_resubmit', locked).ok);
});

// ---- Submit (§4.3) ----------------------------------------------------------------------------

test('submitting on time: ready for feedback, dated now, not an assessment, completion date untouched', () => {
  const now = at('2026-03-17T11:59:59.999Z');
  const out = submit(state({ status: 'working_on_it' }), now, TERMS);
  assert.is(out.state.status, 'ready_for_feedback');
  assert.is(out.state.submissionDate?.toISOString(), now.toISOString());
  assert.is(out.state.timesAssessed, 0);
  assert.is(out.state.assessmentDate, null);
  assert.is(out.state.completionDate, null);
  assert.is(out.state.grade, null);
  assert.equal(out.notes, [{ status: 'ready_for_feedback', by: 'actor' }]);
  assert.ok(out.submitted);
  assert.not.ok(out.assessed);
  // Re-submitting work already complete keeps its completion date.
  const again = submit(state({ status: 'complete', completionDate: '2026-03-10' }), now, TERMS);
  assert.is(again.state.completionDate, '2026-03-10');
});

test('submitting one millisecond late: time exceeded, assessed by the tutor, counted, no completion date', () => {
  const now = at('2026-03-17T12:00:00.000Z');
  const out = submit(state({ status: 'working_on_it', completionDate: '2026-03-01' }), now, TERMS);
  assert.is(out.state.status, 'time_exceeded');
  assert.is(out.state.submissionDate?.toISOString(), now.toISOString());
  assert.is(out.state.assessmentDate?.toISOString(), now.toISOString());
  assert.is(out.state.timesAssessed, 1);
  assert.is(out.state.completionDate, null);
  assert.is(out.state.grade, null, 'an ungraded task gets no grade');
  assert.equal(out.notes, [
    { status: 'ready_for_feedback', by: 'actor' },
    { status: 'time_exceeded', by: 'tutor' },
  ]);
  assert.ok(out.submitted);
  assert.ok(out.assessed);
});

test('late work on a graded task fails when it has no grade yet, and keeps a grade it has (item 20)', () => {
  const now = at('2026-03-24T09:00:00Z');
  assert.is(submit(state(), now, terms({ isGraded: true })).state.grade, -1);
  assert.is(submit(state({ grade: 2 }), now, terms({ isGraded: true })).state.grade, 2);
  assert.is(submit(state(), at('2026-03-16T09:00:00Z'), terms({ isGraded: true })).state.grade, null);
});

test("an extension moves the late boundary: on time up to the extended day's end anywhere on earth", () => {
  assert.is(submit(state({ extensions: 1 }), at('2026-03-24T11:59:59.999Z'), TERMS).state.status, 'ready_for_feedback');
  assert.is(submit(state({ extensions: 1 }), at('2026-03-24T12:00:00.000Z'), TERMS).state.status, 'time_exceeded');
});

// ---- Assess (§4.4) ----------------------------------------------------------------------------

test('times assessed counts once per new submission', () => {
  const first = assess(
    state({ status: 'ready_for_feedback', submissionDate: at('2026-03-10T09:00:00Z') }),
    'fix_and_resubmit',
    at('2026-03-10T10:00:00Z'),
    TERMS,
  );
  assert.is(first.state.timesAssessed, 1);
  assert.ok(first.assessed);
  const again = assess(first.state, 'redo', at('2026-03-10T11:00:00Z'), TERMS);
  assert.is(again.state.timesAssessed, 1, 'no new work since the last assessment');
  const resubmitted = submit(again.state, at('2026-03-11T09:00:00Z'), TERMS);
  const second = assess(resubmitted.state, 'complete', at('2026-03-11T10:00:00Z'), TERMS);
  assert.is(second.state.timesAssessed, 2);
  assert.is(second.state.assessmentDate?.toISOString(), '2026-03-11T10:00:00.000Z');
});

test('assessing work never submitted dates the submission now and counts it', () => {
  const now = at('2026-03-12T08:00:00Z');
  const out = assess(state(), 'complete', now, TERMS);
  assert.is(out.state.submissionDate?.toISOString(), now.toISOString());
  assert.is(out.state.timesAssessed, 1);
  assert.equal(out.notes, [{ status: 'complete', by: 'actor' }]);
  assert.not.ok(out.submitted);
});

test('completion dates: set (UTC day) for complete, discuss and demonstrate, kept when set, cleared by any other outcome', () => {
  const submitted = state({ status: 'ready_for_feedback', submissionDate: at('2026-03-10T09:00:00Z') });
  for (const status of ['complete', 'discuss', 'demonstrate'] as const) {
    assert.is(assess(submitted, status, at('2026-03-12T23:30:00Z'), TERMS).state.completionDate, '2026-03-12', status);
  }
  const kept = assess(state({ status: 'discuss', completionDate: '2026-03-05' }), 'complete', at('2026-03-12T10:00:00Z'), TERMS);
  assert.is(kept.state.completionDate, '2026-03-05');
  for (const status of ['fix_and_resubmit', 'redo', 'feedback_exceeded', 'fail', 'time_exceeded'] as const) {
    assert.is(
      assess(state({ status: 'complete', completionDate: '2026-03-05' }), status, at('2026-03-12T10:00:00Z'), TERMS).state.completionDate,
      null,
      status,
    );
  }
});

test("item 27: fix and resubmit within a week of the due date grants the unit's resubmit weeks (3 -> 1 weeks left)", () => {
  const now = at('2026-03-10T09:00:00Z');
  const t = terms({ targetDate: '2026-03-11', deadline: '2026-04-01', extensionWeeksOnResubmit: 2 });
  const ready = state({ status: 'ready_for_feedback', submissionDate: at('2026-03-10T08:00:00Z') });
  assert.is(weeksCanExtend(t, ready.extensions), 3);
  const out = assess(ready, 'fix_and_resubmit', now, t);
  assert.is(out.state.status, 'fix_and_resubmit');
  assert.is(out.state.extensions, 2);
  assert.is(out.extensionGranted, 2);
  assert.is(weeksCanExtend(t, out.state.extensions), 1);
  assert.is(out.state.completionDate, null);
});

test('no automatic extension: unit setting 0, due more than a week away, deadline reached, or another outcome', () => {
  const now = at('2026-03-10T12:00:00Z');
  const ready = state({ status: 'ready_for_feedback', submissionDate: at('2026-03-10T08:00:00Z') });
  const soon = terms({ targetDate: '2026-03-16', extensionWeeksOnResubmit: 1 });
  // The due day ends 03-17T11:59:59.999Z, just under now + 7 days (03-17T12:00Z): granted.
  assert.is(assess(ready, 'fix_and_resubmit', now, soon).extensionGranted, 1);
  // One day later it ends after now + 7 days: not granted.
  assert.is(assess(ready, 'fix_and_resubmit', now, terms({ targetDate: '2026-03-17', extensionWeeksOnResubmit: 1 })).extensionGranted, 0);
  assert.is(assess(ready, 'fix_and_resubmit', now, terms({ targetDate: '2026-03-16', extensionWeeksOnResubmit: 0 })).extensionGranted, 0);
  assert.is(
    assess(ready, 'fix_and_resubmit', now, terms({ targetDate: '2026-03-16', deadline: '2026-03-16', extensionWeeksOnResubmit: 2 })).extensionGranted,
    0,
  );
  for (const status of ['redo', 'discuss', 'demonstrate', 'complete', 'feedback_exceeded', 'fail'] as const) {
    assert.is(assess(ready, status, now, soon).state.extensions, 0, status);
  }
  // The automatic weeks are clamped to the deadline too.
  const clamped = assess(ready, 'fix_and_resubmit', now, terms({ targetDate: '2026-03-16', deadline: '2026-03-23', extensionWeeksOnResubmit: 3 }));
  assert.is(clamped.state.extensions, 1);
});

// ---- Trigger ----------------------------------------------------------------------------------

test('trigger: ready for feedback submits, the student statuses only set the status, the rest assess', () => {
  const now = at('2026-03-10T09:00:00Z');
  assert.ok(trigger(state(), { target: 'ready_for_feedback' }, now, TERMS).submitted);
  const base = state({ status: 'fix_and_resubmit', timesAssessed: 1, assessmentDate: at('2026-03-09T09:00:00Z'), submissionDate: at('2026-03-08T09:00:00Z') });
  for (const target of ['not_started', 'need_help', 'working_on_it'] as const) {
    const out = trigger(base, { target }, now, TERMS);
    assert.equal(out.state, { ...base, status: target }, target);
    assert.equal(out.notes, [{ status: target, by: 'actor' }]);
    assert.not.ok(out.assessed);
  }
  for (const target of ['complete', 'fix_and_resubmit', 'feedback_exceeded', 'redo', 'discuss', 'demonstrate', 'fail', 'time_exceeded'] as const) {
    const out = trigger(base, { target }, now, TERMS);
    assert.is(out.state.status, target);
    assert.ok(out.assessed, target);
    assert.is(out.state.assessmentDate?.toISOString(), now.toISOString());
  }
});

test('quality points are recorded for passing assessments of starred definitions only', () => {
  const now = at('2026-03-10T09:00:00Z');
  const starred = terms({ maxQualityPts: 5 });
  for (const target of ['complete', 'discuss', 'demonstrate'] as const) {
    assert.is(trigger(state(), { target, qualityPts: 4 }, now, starred).state.qualityPts, 4, target);
  }
  assert.is(trigger(state(), { target: 'fix_and_resubmit', qualityPts: 4 }, now, starred).state.qualityPts, -1, 'unrated stays -1');
  assert.is(trigger(state(), { target: 'complete', qualityPts: 4 }, now, TERMS).state.qualityPts, -1);
  assert.is(trigger(state({ qualityPts: 2 }), { target: 'complete', qualityPts: null }, now, starred).state.qualityPts, 2);
  assert.is(trigger(state({ qualityPts: 2 }), { target: 'complete' }, now, starred).state.qualityPts, 2);
  assert.is(trigger(state(), { target: 'complete', qualityPts: -1 }, now, starred).state.qualityPts, -1);
});

// ---- Grades and quality points ----------------------------------------------------------------

test('grades: -1..3 or the letters F, P, C, D, HD in any case; anything else is refused with an explanation', () => {
  const good: [number | string, number][] = [
    [-1, -1],
    [0, 0],
    [1, 1],
    [2, 2],
    [3, 3],
    ['f', -1],
    ['P', 0],
    ['c', 1],
    ['D', 2],
    ['HD', 3],
    ['hd', 3],
    [' hd ', 3],
    ['-1', -1],
    ['3', 3],
  ];
  for (const [value, grade] of good) assert.equal(parseGrade(value), { ok: true, grade }, String(value));
  for (const value of [4, -2, 1.5, Number.NaN, 'A', 'x', '', '4', '1.5', 'high distinction']) {
    const out = parseGrade(value);
    assert.is(out.ok, false, String(value));
    if (!out.ok) assert.match(out.error, /-1 \(F\), 0 \(P\), 1 \(C\), 2 \(D\) or 3 \(HD\)/);
  }
  assert.equal(GRADE_NAMES, { [-1]: 'Fail', 0: 'Pass', 1: 'Credit', 2: 'Distinction', 3: 'High Distinction' });
  assert.equal(GRADE_LETTERS, { [-1]: 'F', 0: 'P', 1: 'C', 2: 'D', 3: 'HD' });
});

test('quality points: -1 (not rated) up to the maximum, whole numbers only', () => {
  for (const pts of [-1, 0, 3, 5]) assert.is(qualityPtsError(pts, 5), undefined, String(pts));
  for (const pts of [-2, 6, 2.5]) assert.is(qualityPtsError(pts, 5), 'Quality points must be between -1 and 5.', String(pts));
});

test('a grade is required when a graded task is assessed as passed, and only then', () => {
  for (const target of TASK_STATUSES) {
    assert.is(gradeRequired(target, { isGraded: true }), ['complete', 'discuss', 'demonstrate'].includes(target), target);
    assert.not.ok(gradeRequired(target, { isGraded: false }), target);
  }
});

test.run();
