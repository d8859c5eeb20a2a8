import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { addDays } from '../../src/domain/dates.ts';
import { dateForWeek, dateForWeekAndDay, sameWeekAndDay, teachingDayOf, weekdayOf, weekNumber, WEEKDAYS, type PeriodCalendar } from '../../src/domain/weeks.ts';

const test = suite('domain: teaching weeks over breaks');

// The original's seed periods (behaviour.md §7.1).
const T1_2018: PeriodCalendar = { startDate: '2018-03-05', breaks: [{ startDate: '2018-03-30', numberOfWeeks: 1 }] };
const T2_2018: PeriodCalendar = { startDate: '2018-07-09', breaks: [{ startDate: '2018-08-13', numberOfWeeks: 1 }] };
const T3_2018: PeriodCalendar = { startDate: '2018-11-05', breaks: [{ startDate: '2018-12-24', numberOfWeeks: 2 }] };
const NO_BREAKS: PeriodCalendar = { startDate: '2026-03-02', breaks: [] };
// Two breaks given out of order, one starting on a Wednesday; the period starts on a Tuesday.
const TWO_BREAKS: PeriodCalendar = {
  startDate: '2026-07-14',
  breaks: [
    { startDate: '2026-09-16', numberOfWeeks: 1 },
    { startDate: '2026-08-11', numberOfWeeks: 2 },
  ],
};
const ALL = { T1_2018, T2_2018, T3_2018, NO_BREAKS, TWO_BREAKS };

const inBreak = (cal: PeriodCalendar, day: string) => teachingDayOf(cal, day).inBreak;

test('without breaks: week 1 is the first seven days, then one week every seven days', () => {
  assert.is(weekNumber(NO_BREAKS, '2026-03-02'), 1);
  assert.is(weekNumber(NO_BREAKS, '2026-03-08'), 1);
  assert.is(weekNumber(NO_BREAKS, '2026-03-09'), 2);
  assert.is(weekNumber(NO_BREAKS, '2026-05-31'), 13);
  assert.is(weekNumber(NO_BREAKS, '2026-03-01'), 0, 'the day before the start is week 0');
  assert.is(weekNumber(NO_BREAKS, '2026-02-22'), -1, 'and the week before that -1');
  assert.is(dateForWeek(NO_BREAKS, 1), '2026-03-02');
  assert.is(dateForWeek(NO_BREAKS, 5), '2026-03-30');
  assert.is(dateForWeek(NO_BREAKS, 0), '2026-02-23');
});

test('a break on a Monday pauses the weeks: its first day and the next share a week, the day it ends starts the next', () => {
  const start = '2018-08-13';
  assert.is(weekNumber(T2_2018, start), weekNumber(T2_2018, addDays(start, 1)));
  assert.is(weekNumber(T2_2018, '2018-08-20'), weekNumber(T2_2018, start) + 1);
  assert.is(weekNumber(T2_2018, '2018-08-12'), 5, 'the Sunday before the break ends week 5');
  assert.is(weekNumber(T2_2018, '2018-08-19'), 5, 'the whole break counts as week 5');
  assert.is(weekNumber(T2_2018, '2018-08-20'), 6, 'teaching resumes in week 6');
  assert.is(dateForWeek(T2_2018, 6), '2018-08-20', 'week 6 starts after the break');
  assert.is(dateForWeek(T2_2018, 5), '2018-08-06');
  assert.is(dateForWeek(T2_2018, 12), '2018-10-01');
});

test('a two-week break over Christmas pushes later weeks by two weeks', () => {
  assert.is(weekNumber(T3_2018, '2018-12-23'), 7);
  assert.is(weekNumber(T3_2018, '2018-12-31'), 7);
  assert.is(weekNumber(T3_2018, '2019-01-07'), 8);
  assert.is(dateForWeek(T3_2018, 8), '2019-01-07');
  assert.is(dateForWeekAndDay(T3_2018, 7, 'Fri'), '2018-12-21');
  assert.is(dateForWeekAndDay(T3_2018, 8, 'Fri'), '2019-01-11');
});

test('a break starting on a Friday: the week resumes on the Friday after it', () => {
  assert.is(weekNumber(T1_2018, '2018-03-29'), 4);
  assert.is(weekNumber(T1_2018, '2018-03-30'), 4, 'first day of the break');
  assert.is(weekNumber(T1_2018, '2018-04-06'), 4, 'back on Friday, still week 4');
  assert.is(weekNumber(T1_2018, '2018-04-09'), 5);
  assert.is(dateForWeekAndDay(T1_2018, 4, 'Fri'), '2018-04-06', 'a day that would fall in the break lands after it');
  assert.is(dateForWeekAndDay(T1_2018, 4, 'Thu'), '2018-03-29');
  assert.is(dateForWeek(T1_2018, 5), '2018-04-09');
});

test('weekdays: names and indexes alike, weeks running from the start weekday', () => {
  assert.is(dateForWeekAndDay(NO_BREAKS, 1, 'Mon'), '2026-03-02');
  assert.is(dateForWeekAndDay(NO_BREAKS, 1, 'Sun'), '2026-03-08', 'the last day of a Monday-start week');
  assert.is(dateForWeekAndDay(NO_BREAKS, 2, 3), '2026-03-11');
  assert.is(dateForWeekAndDay(TWO_BREAKS, 1, 'Mon'), '2026-07-20', 'a Tuesday-start week ends on Monday');
  assert.is(dateForWeekAndDay(TWO_BREAKS, 1, 'Tue'), '2026-07-14');
  assert.equal(
    WEEKDAYS.map((w) => weekdayOf(dateForWeekAndDay(T3_2018, 9, w))),
    [0, 1, 2, 3, 4, 5, 6],
  );
});

test('every teaching day of every period is the day of its own week and weekday, and each week has 7 of them', () => {
  for (const [name, cal] of Object.entries(ALL)) {
    const perWeek = new Map<number, number>();
    for (let i = -10; i < 200; i++) {
      const day = addDays(cal.startDate, i);
      if (inBreak(cal, day)) continue;
      const week = weekNumber(cal, day);
      assert.is(dateForWeekAndDay(cal, week, weekdayOf(day)), day, `${name} ${day}`);
      perWeek.set(week, (perWeek.get(week) ?? 0) + 1);
      if (i >= 0) assert.ok(week >= 1, `${name} ${day}`);
    }
    for (const [week, days] of perWeek) if (week >= 1 && week < 25) assert.is(days, 7, `${name} week ${week}`);
  }
});

test('week numbers never go down, and go up by at most one a day', () => {
  for (const [name, cal] of Object.entries(ALL)) {
    let previous = weekNumber(cal, addDays(cal.startDate, -1));
    for (let i = 0; i < 200; i++) {
      const week = weekNumber(cal, addDays(cal.startDate, i));
      assert.ok(week === previous || week === previous + 1, `${name} day ${i}`);
      previous = week;
    }
  }
});

test('break days: each is in a break, each belongs to the week of the teaching before it', () => {
  assert.ok(inBreak(TWO_BREAKS, '2026-08-11'));
  assert.ok(inBreak(TWO_BREAKS, '2026-08-24'));
  assert.not.ok(inBreak(TWO_BREAKS, '2026-08-25'));
  assert.not.ok(inBreak(TWO_BREAKS, '2026-08-10'));
  assert.is(weekNumber(TWO_BREAKS, '2026-08-10'), 4);
  assert.is(weekNumber(TWO_BREAKS, '2026-08-11'), 4);
  assert.is(weekNumber(TWO_BREAKS, '2026-08-25'), 5);
  // Second break (Wednesday 16 Sept, one week): week 8 starts Tue 15 Sept and resumes Wed 23 Sept.
  assert.is(weekNumber(TWO_BREAKS, '2026-09-15'), 8);
  assert.is(weekNumber(TWO_BREAKS, '2026-09-16'), 8);
  assert.is(weekNumber(TWO_BREAKS, '2026-09-23'), 8);
  assert.is(weekNumber(TWO_BREAKS, '2026-09-28'), 8);
  assert.is(weekNumber(TWO_BREAKS, '2026-09-29'), 9);
});

test('rollover: a day moves to the same week and weekday of the new period, breaks included', () => {
  // T1 2018 has a Friday break, T2 2018 a Monday break.
  assert.is(sameWeekAndDay(T1_2018, T2_2018, '2018-03-05'), '2018-07-09', 'first day to first day');
  assert.is(sameWeekAndDay(T1_2018, T2_2018, '2018-03-16'), '2018-07-20', 'week 2 Friday');
  assert.is(sameWeekAndDay(T1_2018, T2_2018, '2018-04-06'), '2018-08-03', 'week 4 Friday, after the break');
  assert.is(sameWeekAndDay(T1_2018, T2_2018, '2018-04-13'), '2018-08-10', 'week 5 Friday');
  assert.is(sameWeekAndDay(T1_2018, T2_2018, '2018-04-20'), '2018-08-24', 'week 6 Friday: past the new break');
  assert.is(sameWeekAndDay(T2_2018, T1_2018, '2018-08-24'), '2018-04-20', 'and back');
  // Into a period starting on a Tuesday: the weekday is kept, inside the same teaching week.
  assert.is(sameWeekAndDay(NO_BREAKS, TWO_BREAKS, '2026-03-02'), '2026-07-20', 'week 1 Monday');
  assert.is(sameWeekAndDay(NO_BREAKS, TWO_BREAKS, '2026-03-31'), '2026-08-25', 'week 5 Tuesday: after the new two-week break');
  // A day inside a break of the old period lands on that weekday of the week before the break.
  assert.is(sameWeekAndDay(T2_2018, NO_BREAKS, '2018-08-15'), '2026-04-01', 'week 5 Wednesday');
});

test('rolling every teaching day there and back returns it unchanged', () => {
  for (const [fromName, from] of Object.entries(ALL)) {
    for (const [toName, to] of Object.entries(ALL)) {
      if (weekdayOf(from.startDate) !== weekdayOf(to.startDate)) continue;
      for (let i = 0; i < 120; i++) {
        const day = addDays(from.startDate, i);
        if (inBreak(from, day)) continue;
        const there = sameWeekAndDay(from, to, day);
        assert.not.ok(inBreak(to, there), `${fromName} ${day} -> ${toName} ${there}`);
        assert.is(weekNumber(to, there), weekNumber(from, day));
        assert.is(sameWeekAndDay(to, from, there), day, `${fromName} -> ${toName} -> back ${day}`);
      }
    }
  }
});

test.run();
