import { Webcal, WebcalUnitExclusion, type IWebcal } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';

// Sent in upper case: the real web client's reminder menu offers W, D, H and M, and shows an
// empty choice for anything else.
export const REMINDER_UNITS_OUT = ['W', 'D', 'H', 'M'] as const;

/** The caller's calendar settings, or just `{enabled: false}` when they have no calendar. */
export type WebcalOut =
  | { enabled: false }
  | {
      id: number;
      guid: string;
      user_id: number;
      include_start_dates: boolean;
      enabled: true;
      reminder?: { time: number; unit: (typeof REMINDER_UNITS_OUT)[number] };
      unit_exclusions: number[];
    };

export function findWebcal(em: Em, userId: number): Promise<IWebcal | null> {
  return em.findOne(Webcal, { user: userId });
}

/** The settings answer for a calendar: one more query for its excluded units. */
export async function webcalSettings(em: Em, webcal: IWebcal): Promise<WebcalOut> {
  const exclusions = await em.find(WebcalUnitExclusion, { webcal: webcal.id }, { orderBy: { unit: 'asc' } });
  return toWebcal(
    webcal,
    exclusions.map((e) => e.unit.id),
  );
}

export const DISABLED: WebcalOut = { enabled: false };

export function toWebcal(w: IWebcal, unitExclusions: number[]): WebcalOut {
  return {
    id: w.id,
    guid: w.guid,
    user_id: w.user.id,
    include_start_dates: w.includeStartDates,
    enabled: true,
    // The key is left out altogether when there is no reminder.
    ...(w.reminderTime != null && w.reminderUnit != null
      ? { reminder: { time: w.reminderTime, unit: w.reminderUnit.toUpperCase() as (typeof REMINDER_UNITS_OUT)[number] } }
      : {}),
    unit_exclusions: unitExclusions,
  };
}
