import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { dayAfterTeachingDays, discussTimeoutError, dueNotice, teachingDaysBetween } from '../../src/domain/discuss-timeouts.ts';
import type { PeriodCalendar } from '../../src/domain/weeks.ts';

const test = suite('domain: discuss timeouts (teaching days, the notice due)');

// From Monday 2 March 2026, with a one-week break from Monday 16 March (back on the 23rd).
const T1: PeriodCalendar = { startDate: '2026-03-02', breaks: [{ startDate: '2026-03-16', numberOfWeeks: 1 }] };
const SETTINGS = { warningDays: 7, expireDays: 14 };
const stay = (moved: string, warned = false, expired = false) => ({ movedToDiscussAt: new Date(`${moved}T09:30:00.000Z`), warned, expired });

test('without a period every calendar day counts', () => {
  assert.is(teachingDaysBetween(null, '2026-03-10', '2026-03-10'), 0);
  assert.is(teachingDaysBetween(null, '2026-03-10', '2026-03-17'), 7);
  assert.is(teachingDaysBetween(null, '2026-02-27', '2026-03-02'), 3, 'across a month end');
  assert.is(dayAfterTeachingDays(null, '2026-03-10', 14), '2026-03-24');
});

test("the break's days do not count; a stay begun in a break counts from the day teaching resumes", () => {
  assert.is(teachingDaysBetween(T1, '2026-03-10', '2026-03-16'), 6, 'up to the first day of the break');
  assert.is(teachingDaysBetween(T1, '2026-03-10', '2026-03-22'), 6, 'the whole break counts nothing');
  assert.is(teachingDaysBetween(T1, '2026-03-10', '2026-03-23'), 6, 'the day teaching resumes counts as the break did');
  assert.is(teachingDaysBetween(T1, '2026-03-10', '2026-03-24'), 7);
  assert.is(teachingDaysBetween(T1, '2026-03-18', '2026-03-23'), 0, 'moved during the break: nothing yet when teaching resumes');
  assert.is(teachingDaysBetween(T1, '2026-03-18', '2026-03-30'), 7);
  assert.is(teachingDaysBetween(T1, '2026-02-20', '2026-03-02'), 10, 'days before the period are calendar days');
  assert.is(dayAfterTeachingDays(T1, '2026-03-10', 7), '2026-03-24');
  assert.is(dayAfterTeachingDays(T1, '2026-03-10', 14), '2026-03-31');
  assert.is(dayAfterTeachingDays(T1, '2026-03-18', 7), '2026-03-30');
});

test('the warning falls due on the warning day, not the day before; once warned, nothing until the expiry day', () => {
  assert.is(dueNotice(stay('2026-03-02'), '2026-03-08', SETTINGS, null), null, 'day 6');
  assert.is(dueNotice(stay('2026-03-02'), '2026-03-09', SETTINGS, null), 'warning', 'day 7');
  assert.is(dueNotice(stay('2026-03-02'), '2026-03-12', SETTINGS, null), 'warning', 'still due if the job missed the day');
  assert.is(dueNotice(stay('2026-03-02', true), '2026-03-12', SETTINGS, null), null, 'warned already');
  assert.is(dueNotice(stay('2026-03-02', true), '2026-03-15', SETTINGS, null), null, 'day 13');
  assert.is(dueNotice(stay('2026-03-02', true), '2026-03-16', SETTINGS, null), 'expiry', 'day 14');
  assert.is(dueNotice(stay('2026-03-02', true, true), '2026-04-16', SETTINGS, null), null, 'sent back already');
});

test('a stay past both thresholds at once gets the expiry only', () => {
  assert.is(dueNotice(stay('2026-03-02'), '2026-03-20', SETTINGS, null), 'expiry');
});

test('across a break: a task due its warning on calendar days is not yet warned', () => {
  // Moved on the 12th: 7 calendar days on the 19th, but 4 teaching days then (12th to 16th).
  assert.is(dueNotice(stay('2026-03-12'), '2026-03-19', SETTINGS, null), 'warning', 'calendar days');
  assert.is(dueNotice(stay('2026-03-12'), '2026-03-19', SETTINGS, T1), null, 'teaching days');
  assert.is(dueNotice(stay('2026-03-12'), '2026-03-25', SETTINGS, T1), null, '6 teaching days');
  assert.is(dueNotice(stay('2026-03-12'), '2026-03-26', SETTINGS, T1), 'warning', '7 teaching days');
  assert.is(dueNotice(stay('2026-03-12', true), '2026-04-02', SETTINGS, T1), 'expiry', '14 teaching days');
});

test('the settings: warning at least 1, expiry above it', () => {
  assert.is(discussTimeoutError({ warningDays: 7, expireDays: 14 }), null);
  assert.is(discussTimeoutError({ warningDays: 1, expireDays: 2 }), null);
  assert.is(discussTimeoutError({ warningDays: 0, expireDays: 14 }), 'Discuss timeout warning days must be at least 1');
  assert.is(discussTimeoutError({ warningDays: 7, expireDays: 7 }), 'Discuss timeout expire days must be more than the warning days');
  assert.is(discussTimeoutError({ warningDays: 9, expireDays: 3 }), 'Discuss timeout expire days must be more than the warning days');
  assert.is(discussTimeoutError({ warningDays: 3, expireDays: -1 }), 'Discuss timeout expire days must be at least 1');
});

test.run();
