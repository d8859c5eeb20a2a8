// The workload dashboard's calendar (docs/marking/dashboard.md): which week "assessed this week"
// counts, and the windows the feedback medians cover. Pure: days are 'YYYY-MM-DD' UTC calendar
// days, as everywhere else in the service.
import { addDays, toDay } from './dates.ts';
import { weekdayOf } from './weeks.ts';

/** The windows, in days back from now, of the median time from submission to first feedback. */
export const FEEDBACK_WINDOWS_DAYS = [7, 28] as const;

/** The Monday (UTC) of the ISO week that contains this instant: the default start of "this week". */
export function weekStartOf(now: Date): string {
  const day = toDay(now);
  // weekdayOf: 0 = Sunday; the ISO week starts on Monday, so Sunday belongs to the week before.
  return addDays(day, -((weekdayOf(day) + 6) % 7));
}
