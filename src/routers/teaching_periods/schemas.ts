import { z } from 'zod';
import type { ITeachingPeriod } from '../../../schema/index.ts';
import { toTimestamp } from '../../domain/dates.ts';
import { formInt, formTimestamp, idField, requiredString } from '../../trpc/fields.ts';
import { breakOut } from './breaks/schemas.ts';
import { UNIT_ROLE_NAMES } from '../../policy/index.ts';

export const teachingPeriodOut = z.object({
  id: z.number().int(),
  period: z.string(),
  year: z.number().int(),
  start_date: z.string(),
  end_date: z.string(),
  active_until: z.string(),
  active: z.boolean(),
});
export type TeachingPeriodOut = z.infer<typeof teachingPeriodOut>;

/** `active` is computed against `now` (the request clock), never stored. */
export function toTeachingPeriod(tp: ITeachingPeriod, now: Date): TeachingPeriodOut {
  return {
    id: tp.id,
    period: tp.period,
    year: tp.year,
    start_date: toTimestamp(tp.startDate),
    end_date: toTimestamp(tp.endDate),
    active_until: toTimestamp(tp.activeUntil),
    active: tp.activeUntil.getTime() > now.getTime(),
  };
}

/** A unit as listed inside its teaching period (spec "Unit summary"). */
export const unitSummaryOut = z.object({
  code: z.string(),
  id: z.number().int(),
  name: z.string(),
  my_role: z.enum(UNIT_ROLE_NAMES).nullable(),
  main_convenor_user_id: z.number().int().nullable(),
  description: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  active: z.boolean(),
  teaching_period_id: z.number().int(),
});
export type UnitSummaryOut = z.infer<typeof unitSummaryOut>;

export const teachingPeriodDetailOut = teachingPeriodOut.extend({
  breaks: z.array(breakOut),
  units: z.array(unitSummaryOut),
});

export const teachingPeriodIdInput = z.object({ id: idField() });

// The web client also sends `active` and a `units` array in the wrapper: unknown keys are dropped.
const periodFields = {
  period: requiredString(),
  year: formInt(),
  start_date: formTimestamp(),
  end_date: formTimestamp(),
  active_until: formTimestamp(),
};

export const createTeachingPeriodInput = z.object({
  teaching_period: z.object(periodFields),
});

export const updateTeachingPeriodInput = z.object({
  id: idField(),
  teaching_period: z
    .object({
      period: periodFields.period.optional(),
      year: periodFields.year.optional(),
      start_date: periodFields.start_date.optional(),
      end_date: periodFields.end_date.optional(),
      active_until: periodFields.active_until.optional(),
    })
    .default({}),
});

export const deleteTeachingPeriodInput = z.object({ teaching_period_id: idField() });
