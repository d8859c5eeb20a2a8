import ical, { ICalAlarmType, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { addDays } from './dates.ts';
import type { FeedEvent } from './webcal-events.ts';

const ONE_DAY_SECONDS = 86_400;

const utcMidnight = (day: string) => new Date(`${day}T00:00:00.000Z`);

/**
 * The feed as iCalendar text, written by ical-generator (it escapes, folds and formats; nothing
 * here joins iCalendar by hand). `productName` names the calendar's producer (PRODID); `now`
 * stamps the events.
 */
export function renderCalendar(events: FeedEvent[], productName: string, now: Date): string {
  const calendar = ical({
    // PRODID is written as given: a line break or '//' in the configured name must not break it.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: it replaces control characters
    prodId: `//${productName.replace(/[\u0000-\u001f\u007f]|\/\//g, ' ').trim() || 'Calendar'}//Task calendar//EN`,
    method: ICalCalendarMethod.PUBLISH,
    // Both REFRESH-INTERVAL and X-PUBLISHED-TTL: clients ask again daily.
    ttl: ONE_DAY_SECONDS,
  });
  for (const e of events) {
    const event = calendar.createEvent({
      id: e.uid,
      allDay: true,
      start: utcMidnight(e.day),
      // An all-day event's end is the next day: DTEND is exclusive (RFC 5545 §3.6.1).
      end: utcMidnight(addDays(e.day, 1)),
      stamp: now,
      summary: e.summary,
      status: ICalEventStatus.CONFIRMED,
      // The original's names, kept for whatever already reads them.
      x: [
        { key: 'X-DOUBTFIRE-UNIT', value: String(e.unitId) },
        { key: 'X-DOUBTFIRE-TASK', value: String(e.taskDefinitionId) },
      ],
    });
    if (e.alarmSecondsBefore !== null) {
      event.createAlarm({ type: ICalAlarmType.display, trigger: e.alarmSecondsBefore, description: e.summary });
    }
  }
  // Every content line ends in CRLF, the last one too (RFC 5545 §3.1); ical-generator leaves it off.
  return `${calendar.toString()}\r\n`;
}
