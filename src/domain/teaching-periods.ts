// Rules for teaching periods and their breaks (reference §7.1). Pure: no database, no clock.
// Each function returns the problems it finds as "Field message" texts; an empty list means valid.

import { addWeeks, toDay } from './dates.ts';

export const PERIOD_MAX_LENGTH = 20;
export const FIRST_YEAR = 2000;
export const LAST_YEAR = 2999;

export interface TeachingPeriodFields {
  period: string;
  year: number;
  startDate: Date;
  endDate: Date;
  activeUntil: Date;
}

/** Problems with a teaching period's own fields (uniqueness of period per year needs the database). */
export function teachingPeriodErrors(p: TeachingPeriodFields): string[] {
  const errors: string[] = [];
  const period = p.period.trim();
  if (period.length === 0) errors.push("Period can't be blank");
  if (period.length > PERIOD_MAX_LENGTH) errors.push(`Period is too long (maximum is ${PERIOD_MAX_LENGTH} characters)`);
  if (!Number.isInteger(p.year) || p.year < FIRST_YEAR || p.year > LAST_YEAR) {
    errors.push(`Year must be between ${FIRST_YEAR} and ${LAST_YEAR}`);
  }
  if (p.endDate.getTime() < p.startDate.getTime()) errors.push('End date should be on or after the start date');
  if (p.activeUntil.getTime() < p.endDate.getTime()) errors.push('Active until should be on or after the end date');
  return errors;
}

/** A break: `numberOfWeeks` whole weeks from the day `startDate` ('YYYY-MM-DD'). */
export interface BreakSpan {
  startDate: string;
  numberOfWeeks: number;
}

const MS_PER_WEEK = 7 * 24 * 60 * 60 * 1000;

// Breaks are compared as UTC-midnight milliseconds: plain numbers never throw, however many weeks.
const dayMs = (day: string): number => Date.parse(`${day}T00:00:00.000Z`);
const startMs = (b: BreakSpan): number => dayMs(b.startDate);
const endMs = (b: BreakSpan): number => startMs(b) + b.numberOfWeeks * MS_PER_WEEK;

/** The first day after the break (start + weeks), as 'YYYY-MM-DD'. */
export function breakEndDate(b: BreakSpan): string {
  return addWeeks(b.startDate, b.numberOfWeeks);
}

/**
 * Two breaks overlap when they share at least one day. A break covers [start, end), so one that
 * starts on the day another ends is back to back, not overlapping.
 */
export function breaksOverlap(a: BreakSpan, b: BreakSpan): boolean {
  return startMs(a) < endMs(b) && startMs(b) < endMs(a);
}

/**
 * Problems with a break in a period whose other breaks are `others` (the break itself excluded).
 * Days are compared as UTC calendar days of the period's start and end.
 */
export function breakErrors(candidate: BreakSpan, period: { startDate: Date; endDate: Date }, others: readonly BreakSpan[]): string[] {
  const errors: string[] = [];
  if (!Number.isInteger(candidate.numberOfWeeks) || candidate.numberOfWeeks < 1) {
    errors.push('Number of weeks must be at least 1');
    return errors;
  }
  if (startMs(candidate) < dayMs(toDay(period.startDate))) errors.push('Start date should be on or after the teaching period start date');
  if (endMs(candidate) > dayMs(toDay(period.endDate))) errors.push('Number of weeks is exceeding the teaching period end date');
  if (others.some((other) => breaksOverlap(candidate, other))) errors.push('Start date overlaps another break');
  return errors;
}
