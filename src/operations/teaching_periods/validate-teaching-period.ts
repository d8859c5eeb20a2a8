import { TeachingPeriod } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { teachingPeriodErrors, type TeachingPeriodFields } from '../../domain/teaching-periods.ts';
import { badRequest } from '../../lib/errors.ts';

/** Throws 400 "Validation failed: ..." listing every problem, as the original's model validation does. */
export function failIfInvalid(errors: readonly string[]): void {
  if (errors.length > 0) throw badRequest(`Validation failed: ${errors.join(', ')}`);
}

/** The period's own rules plus "period unique per year" (ignoring the period being updated). */
export async function validateTeachingPeriod(em: Em, fields: TeachingPeriodFields, exceptId?: number): Promise<void> {
  const errors = teachingPeriodErrors(fields);
  const clash = await em.count(TeachingPeriod, {
    period: fields.period,
    year: fields.year,
    ...(exceptId === undefined ? {} : { id: { $ne: exceptId } }),
  });
  if (clash > 0) errors.push('Period has already been taken');
  failIfInvalid(errors);
}
