import { TeachingPeriod, Unit, type ITeachingPeriod } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { toDay } from '../../domain/dates.ts';
import type { TeachingPeriodFields } from '../../domain/teaching-periods.ts';
import { findOr404 } from '../../db/lookup.ts';
import { validateTeachingPeriod } from './validate-teaching-period.ts';

/** Creates a teaching period after its rules and "period unique per year" pass (400 otherwise). */
export async function createTeachingPeriod(em: Em, fields: TeachingPeriodFields): Promise<ITeachingPeriod> {
  await validateTeachingPeriod(em, fields);
  const period = em.create(TeachingPeriod, fields);
  await em.flush();
  return period;
}

/** Changes the fields given; a new start or end date is copied to every unit of the period. */
export async function updateTeachingPeriod(em: Em, id: number, changes: Partial<TeachingPeriodFields>, now: Date): Promise<ITeachingPeriod> {
  const period = await findOr404(em, TeachingPeriod, id);
  const fields: TeachingPeriodFields = {
    period: changes.period ?? period.period,
    year: changes.year ?? period.year,
    startDate: changes.startDate ?? period.startDate,
    endDate: changes.endDate ?? period.endDate,
    activeUntil: changes.activeUntil ?? period.activeUntil,
  };
  await validateTeachingPeriod(em, fields, period.id);

  const datesChanged = fields.startDate.getTime() !== period.startDate.getTime() || fields.endDate.getTime() !== period.endDate.getTime();
  em.assign(period, fields);
  await em.flush();
  if (datesChanged) {
    // Units in a period always run on the period's days (reference §7.1, §7.3).
    await em.nativeUpdate(Unit, { teachingPeriod: period.id }, { startDate: toDay(fields.startDate), endDate: toDay(fields.endDate), updatedAt: now });
  }
  return period;
}
