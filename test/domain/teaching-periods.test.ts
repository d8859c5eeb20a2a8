import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { breakEndDate, breakErrors, breaksOverlap, teachingPeriodErrors } from '../../src/domain/teaching-periods.ts';

const test = suite('domain: teaching periods and breaks');

const d = (s: string) => new Date(s);
const valid = {
  period: 'T1',
  year: 2026,
  startDate: d('2026-03-02T00:00:00Z'),
  endDate: d('2026-05-29T00:00:00Z'),
  activeUntil: d('2026-06-30T00:00:00Z'),
};

test('a well-formed period has no errors, including the boundaries', () => {
  assert.equal(teachingPeriodErrors(valid), []);
  assert.equal(teachingPeriodErrors({ ...valid, period: 'P'.repeat(20), year: 2000 }), []);
  assert.equal(teachingPeriodErrors({ ...valid, year: 2999, endDate: valid.startDate, activeUntil: valid.startDate }), []);
});

test('period text: blank and longer than 20 characters', () => {
  assert.equal(teachingPeriodErrors({ ...valid, period: '  ' }), ["Period can't be blank"]);
  assert.equal(teachingPeriodErrors({ ...valid, period: 'P'.repeat(21) }), ['Period is too long (maximum is 20 characters)']);
});

test('year must be a whole number from 2000 to 2999', () => {
  for (const year of [1999, 3000, 26, 2026.5, Number.NaN]) {
    assert.equal(teachingPeriodErrors({ ...valid, year }), ['Year must be between 2000 and 2999'], String(year));
  }
});

test('end on or after start; active until on or after end; every problem is reported', () => {
  assert.equal(teachingPeriodErrors({ ...valid, endDate: d('2026-03-01T23:59:59Z') }), ['End date should be on or after the start date']);
  assert.equal(teachingPeriodErrors({ ...valid, activeUntil: d('2026-05-28T00:00:00Z') }), ['Active until should be on or after the end date']);
  assert.equal(teachingPeriodErrors({ ...valid, period: '', year: 1, endDate: d('2026-01-01T00:00:00Z') }).length, 3);
});

test('a break ends whole weeks after it starts, crossing months and leap days', () => {
  assert.is(breakEndDate({ startDate: '2026-03-30', numberOfWeeks: 1 }), '2026-04-06');
  assert.is(breakEndDate({ startDate: '2024-02-26', numberOfWeeks: 1 }), '2024-03-04');
  assert.is(breakEndDate({ startDate: '2018-12-24', numberOfWeeks: 2 }), '2019-01-07');
});

test('breaks overlap when they share a day; back to back does not count', () => {
  const a = { startDate: '2026-04-06', numberOfWeeks: 2 }; // 04-06 .. 04-19
  assert.ok(breaksOverlap(a, { startDate: '2026-04-19', numberOfWeeks: 1 }));
  assert.ok(breaksOverlap(a, { startDate: '2026-03-30', numberOfWeeks: 2 }));
  assert.ok(breaksOverlap(a, { startDate: '2026-04-08', numberOfWeeks: 1 }));
  assert.ok(breaksOverlap(a, { startDate: '2026-03-23', numberOfWeeks: 6 }));
  assert.ok(breaksOverlap(a, a));
  assert.not.ok(breaksOverlap(a, { startDate: '2026-04-20', numberOfWeeks: 1 }));
  assert.not.ok(breaksOverlap(a, { startDate: '2026-03-30', numberOfWeeks: 1 }));
});

test('a break must lie within its period and clear of the other breaks', () => {
  const period = { startDate: d('2026-03-02T00:00:00Z'), endDate: d('2026-05-29T00:00:00Z') };
  const others = [{ startDate: '2026-04-06', numberOfWeeks: 2 }];
  assert.equal(breakErrors({ startDate: '2026-03-02', numberOfWeeks: 1 }, period, others), []);
  assert.equal(breakErrors({ startDate: '2026-05-22', numberOfWeeks: 1 }, period, others), []);
  assert.equal(breakErrors({ startDate: '2026-03-01', numberOfWeeks: 1 }, period, others), ['Start date should be on or after the teaching period start date']);
  assert.equal(breakErrors({ startDate: '2026-05-23', numberOfWeeks: 1 }, period, others), ['Number of weeks is exceeding the teaching period end date']);
  assert.equal(breakErrors({ startDate: '2026-04-13', numberOfWeeks: 1 }, period, others), ['Start date overlaps another break']);
  assert.equal(breakErrors({ startDate: '2026-04-13', numberOfWeeks: 1 }, period, []), []);
  assert.equal(breakErrors({ startDate: '2026-03-30', numberOfWeeks: 0 }, period, others), ['Number of weeks must be at least 1']);
  // Absurd lengths are simply too long, never an arithmetic failure.
  assert.equal(breakErrors({ startDate: '2026-03-30', numberOfWeeks: Number.MAX_SAFE_INTEGER }, period, others), [
    'Number of weeks is exceeding the teaching period end date',
    'Start date overlaps another break',
  ]);
  assert.equal(breakErrors({ startDate: '9999-12-27', numberOfWeeks: 1 }, period, []), ['Number of weeks is exceeding the teaching period end date']);
});

test('a period starting late in its first day still allows a break on that day', () => {
  const period = { startDate: d('2026-03-02T13:00:00Z'), endDate: d('2026-03-09T01:00:00Z') };
  assert.equal(breakErrors({ startDate: '2026-03-02', numberOfWeeks: 1 }, period, []), []);
});

test.run();
