import { randomUUID } from 'node:crypto';
import { Project, Webcal, WebcalUnitExclusion, type IWebcal } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { authedMutation } from '../../trpc/core.ts';
import { DISABLED, findWebcal, webcalSettings } from '../../operations/webcal/find-webcal.ts';
import { updateWebcalInput, webcalOut } from './schemas.ts';

const INT32_MAX = 2_147_483_647;

export const updateWebcal = authedMutation
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/webcal',
      tags: ['Webcal'],
      summary: "Change the caller's calendar settings",
      description:
        '`enabled` true creates the calendar, false deletes it. `should_change_guid` issues a new address. ' +
        '`unit_exclusions` replaces the list, keeping only active units the caller is enrolled in. ' +
        '`reminder` needs both `time` (>= 1) and `unit` (w, d, h, m); null clears it.',
    },
  })
  .input(updateWebcalInput)
  .output(webcalOut)
  .mutation(async ({ ctx, input }) => {
    const changes = input.webcal;
    let webcal = await findWebcal(ctx.em, ctx.user.id);

    if (changes.enabled === false) {
      if (webcal) {
        // Its unit exclusions go with it (database cascade).
        ctx.em.remove(webcal);
        await ctx.em.flush();
      }
      return DISABLED;
    }
    if (!webcal) {
      // Settings of a disabled calendar are not kept: only enabling creates one.
      if (changes.enabled !== true) return DISABLED;
      webcal = ctx.em.create(Webcal, { user: ctx.user.id, guid: randomUUID(), includeStartDates: false, createdAt: ctx.clock.now() });
      await ctx.em.flush();
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
    if (changes.unit_exclusions !== undefined) await replaceExclusions(ctx.em, webcal, ctx.user.id, changes.unit_exclusions);
    await ctx.em.flush();
    return webcalSettings(ctx.em, webcal);
  });

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
