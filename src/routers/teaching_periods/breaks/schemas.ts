import { z } from 'zod';
import type { IBreak } from '../../../../schema/index.ts';
import { formDay, formInt, idField } from '../../../trpc/fields.ts';

export const breakOut = z.object({
  id: z.number().int(),
  start_date: z.string(),
  number_of_weeks: z.number().int(),
});
export type BreakOut = z.infer<typeof breakOut>;

export function toBreak(b: IBreak): BreakOut {
  return { id: b.id, start_date: b.startDate, number_of_weeks: b.numberOfWeeks };
}

const day = () => formDay();
const weeks = () => formInt().pipe(z.number().int().min(1));

export const periodBreaksInput = z.object({ teaching_period_id: idField() });

// Breaks are not wrapped: the web client sends flat JSON `{start_date, number_of_weeks}`.
export const createBreakInput = z.object({
  teaching_period_id: idField(),
  start_date: day(),
  number_of_weeks: weeks(),
});

export const breakIdInput = z.object({ teaching_period_id: idField(), id: idField() });

export const updateBreakInput = breakIdInput.extend({
  start_date: day().optional(),
  number_of_weeks: weeks().optional(),
});
