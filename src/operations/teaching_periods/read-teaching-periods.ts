// Reading teaching periods and their breaks; the procedures shape the records for the wire.
import { Break, TeachingPeriod, type IBreak, type ITeachingPeriod } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { findOr404 } from '../../db/lookup.ts';

/** Every teaching period, by start date. */
export async function listTeachingPeriods(em: Em): Promise<ITeachingPeriod[]> {
  return em.find(TeachingPeriod, {}, { orderBy: { startDate: 'asc', id: 'asc' } });
}

/** A period (404 when unknown) with its breaks by start date. */
export async function teachingPeriodWithBreaks(em: Em, periodId: number): Promise<{ period: ITeachingPeriod; breaks: IBreak[] }> {
  const period = await findOr404(em, TeachingPeriod, periodId);
  const breaks = await em.find(Break, { teachingPeriod: period.id }, { orderBy: { startDate: 'asc', id: 'asc' } });
  return { period, breaks };
}
