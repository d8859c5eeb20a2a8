import { randomUUID } from 'node:crypto';
import type { WebcalReminderUnit } from '../../../schema/enums.ts';
import { Project, Webcal, WebcalUnitExclusion, type IWebcal } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { DISABLED, findWebcal, webcalSettings, type WebcalOut } from './find-webcal.ts';

const INT32_MAX = 2_147_483_647;

/** What PUT /api/webcal may change; a key left out stays as it is. */
export interface WebcalChanges {
  enabled?: boolean;
  should_change_guid?: boolean;
  include_start_dates?: boolean;
  unit_exclusions?: number[];
  /** `null` clears the reminder. */
  reminder?: { time: number; unit: WebcalReminderUnit } | null;
}

/**
 * Creates (enabled true), deletes (enabled false) or changes the user's calendar and answers its
 * settings. Settings of a disabled calendar are not kept: only enabling creates one.
 */
export async function updateWebcal(em: Em, userId: number, changes: WebcalChanges, now: Date): Promise<WebcalOut> {
  let webcal = await findWebcal(em, userId);

  if (changes.enabled === false) {
    if (webcal) {
      // Its unit exclusions go with it (database cascade).
      em.remove(webcal);
      await em.flush();
    }
    return DISABLED;
  }
  if (!webcal) {
    if (changes.enabled !== true) return DISABLED;
    webcal = em.create(Webcal, { user: userId, guid: randomUUID(), includeStartDates: false, createdAt: now });
    await em.flush();
  }

  if (changes.should_change_guid === true) webcal.guid = randomUUID();
  if (changes.include_start_dates !== undefined) webcal.includeStartDates = changes.include_start_dates;
  if (changes.reminder === null) {
    webcal.reminderTime = null;
    webcal.reminderUnit = null;
  } else if (changes.reminder !== undefined) {
    webcal.reminderTime = changes.reminder.time;
    webcal.reminderUnit = changes.reminder.unit;
  }
  if (changes.unit_exclusions !== undefined) await replaceExclusions(em, webcal, userId, changes.unit_exclusions);
  await em.flush();
  return webcalSettings(em, webcal);
}

/** Sets the excluded units to those of `unitIds` that are active units the user is enrolled in. */
async function replaceExclusions(em: Em, webcal: IWebcal, userId: number, unitIds: number[]): Promise<void> {
  const candidates = [...new Set(unitIds.filter((id) => id > 0 && id <= INT32_MAX))];
  const enrolments = candidates.length ? await em.find(Project, { user: userId, enrolled: true, unit: { id: { $in: candidates }, active: true } }) : [];
  const wanted = new Set(enrolments.map((p) => p.unit.id));
  for (const existing of await em.find(WebcalUnitExclusion, { webcal: webcal.id })) {
    if (wanted.has(existing.unit.id)) wanted.delete(existing.unit.id);
    else em.remove(existing);
  }
  for (const unitId of wanted) em.create(WebcalUnitExclusion, { webcal, unit: unitId });
}
