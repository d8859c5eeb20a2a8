// Teaching weeks over breaks (behaviour.md §7.2): week numbers of days, days of weeks, and the
// move of a day to the same week and weekday of another period (rollover, §7.4). Pure: days are
// 'YYYY-MM-DD' strings (UTC calendar days), no clock and no database.
//
// The model: a period counts teaching days from its start day, and break days do not count.
// Week n is teaching days 7(n-1) .. 7n-1, so weeks pause during a break and resume after it.
// Because breaks are whole weeks, a teaching day's weekday always matches its place in its week,
// which is what makes a (week, weekday) pair name exactly one teaching day.
import type { BreakSpan } from './teaching-periods.ts';
import { addDays } from './dates.ts';

export const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A period's calendar: its first day and its breaks (any order). */
export interface PeriodCalendar {
  startDate: string;
  breaks: readonly BreakSpan[];
}

const MS_PER_DAY = 24 * 60 * 60 * 1000;
const dayNumber = (day: string): number => Math.round(Date.parse(`${day}T00:00:00.000Z`) / MS_PER_DAY);

/** 0 = Sunday ... 6 = Saturday. */
export function weekdayOf(day: string): number {
  return new Date(`${day}T00:00:00.000Z`).getUTCDay();
}

export function weekdayIndex(weekday: Weekday | number): number {
  return typeof weekday === 'number' ? ((weekday % 7) + 7) % 7 : WEEKDAYS.indexOf(weekday);
}

interface Span {
  start: number;
  end: number;
}

/** Breaks as day-number spans [start, end), ascending; those entirely before the period are ignored. */
function spans(cal: PeriodCalendar): Span[] {
  const first = dayNumber(cal.startDate);
  return cal.breaks
    .map((b) => ({ start: dayNumber(b.startDate), end: dayNumber(b.startDate) + 7 * b.numberOfWeeks }))
    .filter((s) => s.end > first && s.end > s.start)
    .map((s) => ({ start: Math.max(s.start, first), end: s.end }))
    .sort((a, b) => a.start - b.start);
}

/**
 * Where a day falls: how many teaching days of the period come before it, and whether the day
 * itself is inside a break. Days before the start count negatively.
 */
export function teachingDayOf(cal: PeriodCalendar, day: string): { index: number; inBreak: boolean } {
  const d = dayNumber(day);
  let index = d - dayNumber(cal.startDate);
  let inBreak = false;
  for (const s of spans(cal)) {
    if (d < s.start) break;
    index -= Math.min(d, s.end) - s.start;
    if (d < s.end) inBreak = true;
  }
  return { index, inBreak };
}

/** The day that is teaching day `index` (0 = the start day), skipping every break. */
export function dayOfTeachingDay(cal: PeriodCalendar, index: number): string {
  const first = dayNumber(cal.startDate);
  let d = first + index;
  for (const s of spans(cal)) {
    if (d >= s.start) d += s.end - s.start;
  }
  return addDays(cal.startDate, d - first);
}

/**
 * The teaching week of a day: 1 from the start day, paused over breaks. A day inside a break
 * belongs to the week of the last teaching day before it (so a break's first day and the day after
 * share a week, and the day the break ends starts the next one).
 */
export function weekNumber(cal: PeriodCalendar, day: string): number {
  const { index, inBreak } = teachingDayOf(cal, day);
  return Math.floor((inBreak ? index - 1 : index) / 7) + 1;
}

/** The first day of teaching week `week` (past any break). */
export function dateForWeek(cal: PeriodCalendar, week: number): string {
  return dayOfTeachingDay(cal, 7 * (week - 1));
}

/**
 * The day with this weekday in teaching week `week`. Weeks run seven teaching days from the
 * period's start weekday, so with a Monday start, week 1's Sunday is the sixth day after the start.
 */
export function dateForWeekAndDay(cal: PeriodCalendar, week: number, weekday: Weekday | number): string {
  const offset = (weekdayIndex(weekday) - weekdayOf(cal.startDate) + 7) % 7;
  return dayOfTeachingDay(cal, 7 * (week - 1) + offset);
}

/**
 * The day of `to` with the same week number and weekday that `day` has in `from`. A day inside a
 * break of `from` takes the week of the teaching before it.
 */
export function sameWeekAndDay(from: PeriodCalendar, to: PeriodCalendar, day: string): string {
  return dateForWeekAndDay(to, weekNumber(from, day), weekdayOf(day));
}
