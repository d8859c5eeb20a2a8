// Discuss timeouts (docs/discuss-timeouts.md): a task left in discuss is warned about after a
// unit's warning days, and sent back to fix and resubmit after its expiry days. The days are
// teaching days: days inside the unit's teaching period's breaks do not count. Pure: days are
// 'YYYY-MM-DD' UTC calendar days (src/domain/dates.ts), no clock and no database.
import { toDay } from './dates.ts';
import { dayOfTeachingDay, teachingDayOf, type PeriodCalendar } from './weeks.ts';

/** A unit's timeout settings. */
export interface DiscussTimeoutSettings {
  warningDays: number;
  expireDays: number;
}

/** A new unit's days, as the table's defaults. */
export const DISCUSS_TIMEOUT_DEFAULTS: DiscussTimeoutSettings = { warningDays: 7, expireDays: 14 };

/**
 * What is wrong with a unit's timeout settings, or null. The table's check constraint holds the
 * same rule; this gives the words a person can act on before it is reached.
 */
export function discussTimeoutError(s: DiscussTimeoutSettings): string | null {
  if (s.warningDays < 1) return 'Discuss timeout warning days must be at least 1';
  if (s.expireDays < 1) return 'Discuss timeout expire days must be at least 1';
  if (s.expireDays <= s.warningDays) return 'Discuss timeout expire days must be more than the warning days';
  return null;
}

/**
 * Teaching days from `from` to `to` (both days): the calendar days between them less those inside
 * a break. Without a calendar (a unit in no teaching period) every day counts. A day inside a break
 * counts as the break's first day, so a task moved to discuss during a break starts counting when
 * teaching resumes.
 */
export function teachingDaysBetween(calendar: PeriodCalendar | null, from: string, to: string): number {
  const cal = calendar ?? { startDate: from, breaks: [] };
  return teachingDayOf(cal, to).index - teachingDayOf(cal, from).index;
}

/** The day a stay that began on `from` reaches `days` teaching days (breaks skipped). */
export function dayAfterTeachingDays(calendar: PeriodCalendar | null, from: string, days: number): string {
  const cal = calendar ?? { startDate: from, breaks: [] };
  return dayOfTeachingDay(cal, teachingDayOf(cal, from).index + days);
}

export type DiscussNotice = 'warning' | 'expiry';

/** A task's stay in discuss as the daily job sees it. */
export interface DiscussStay {
  movedToDiscussAt: Date;
  warned: boolean;
  expired: boolean;
}

/**
 * The notice a stay is due today, or null. Expiry wins: a stay past both thresholds at once (the
 * job did not run for a while) is sent back without a warning first, since a warning that its
 * time is nearly up would arrive with the news that it is up.
 */
export function dueNotice(stay: DiscussStay, today: string, settings: DiscussTimeoutSettings, calendar: PeriodCalendar | null): DiscussNotice | null {
  if (stay.expired) return null;
  const days = teachingDaysBetween(calendar, toDay(stay.movedToDiscussAt), today);
  if (days >= settings.expireDays) return 'expiry';
  if (days >= settings.warningDays && !stay.warned) return 'warning';
  return null;
}

/** The warning comment posted on the task (by the student's tutor). */
export function discussWarningComment(d: { days: number; expiresOn: string }): string {
  return (
    `This task has been waiting in Discuss for ${d.days} teaching days. Please talk it over with your tutor soon: ` +
    `if it is still in Discuss on ${d.expiresOn}, it will go back to Fix and Resubmit.`
  );
}

/** The comment that goes with the move to fix and resubmit (and meets a unit's required feedback comment). */
export function discussExpiryComment(d: { days: number }): string {
  return (
    `This task stayed in Discuss for ${d.days} teaching days without being discussed, so it has gone back to Fix and Resubmit. ` +
    'Look over your work, submit it again, and then discuss it with your tutor.'
  );
}
