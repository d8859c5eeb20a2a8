import type { WebcalReminderUnit } from './vocabulary.ts';
import { dueDay } from './task-rules.ts';

// What a student's calendar feed shows (behaviour.md §8), as plain data: the feed's query picks
// the definitions, these rules turn them into events, and webcal-calendar.ts writes iCalendar.

/** A task definition the feed includes, with the student's granted weeks (null: no task yet). */
export interface FeedDefinition {
  id: number;
  unitId: number;
  unitCode: string;
  abbreviation: string;
  name: string;
  startDate: string;
  targetDate: string;
  /** The definition's due date, or the unit's end when it has none. */
  deadline: string;
  extensions: number | null;
}

export interface FeedSettings {
  includeStartDates: boolean;
  reminder: { time: number; unit: WebcalReminderUnit } | null;
}

/** One all-day event. */
export interface FeedEvent {
  /** Stable across refreshes, so calendar clients update the event instead of adding another. */
  uid: string;
  day: string;
  summary: string;
  unitId: number;
  taskDefinitionId: number;
  /** How long before the event's day begins the reminder fires, in seconds; null for none. */
  alarmSecondsBefore: number | null;
}

const SECONDS: Record<WebcalReminderUnit, number> = { w: 7 * 86_400, d: 86_400, h: 3_600, m: 60 };

export function reminderSeconds(reminder: FeedSettings['reminder']): number | null {
  return reminder ? reminder.time * SECONDS[reminder.unit] : null;
}

/**
 * An end event on each definition's due day for the student (target date plus granted weeks, never
 * past the deadline), and a start event before it when the student asked for start dates.
 */
export function feedEvents(definitions: FeedDefinition[], settings: FeedSettings): FeedEvent[] {
  const alarmSecondsBefore = reminderSeconds(settings.reminder);
  return definitions.flatMap((d) => {
    const title = `${d.unitCode}: ${d.abbreviation}: ${d.name}`;
    const common = { unitId: d.unitId, taskDefinitionId: d.id, alarmSecondsBefore };
    const end: FeedEvent = {
      ...common,
      uid: `E-${d.id}`,
      day: dueDay(d, d.extensions ?? 0),
      // With start events alongside, the end needs saying.
      summary: settings.includeStartDates ? `End: ${title}` : title,
    };
    if (!settings.includeStartDates) return [end];
    return [{ ...common, uid: `S-${d.id}`, day: d.startDate, summary: `Start: ${title}` }, end];
  });
}
