import { TeachingPeriod, Unit } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { badRequest } from '../../lib/errors.ts';
import { findOr404 } from '../../db/lookup.ts';
import { findPeriodBreak } from './breaks/find-period-break.ts';

/** Deletes a period that no unit belongs to (400 otherwise); its breaks go with it (the foreign key cascades). */
export async function deleteTeachingPeriod(em: Em, periodId: number): Promise<void> {
  const period = await findOr404(em, TeachingPeriod, periodId);
  if ((await em.count(Unit, { teachingPeriod: period.id })) > 0) throw badRequest('Cannot delete a teaching period that has units');
  em.remove(period);
  await em.flush();
}

/** Deletes one break of a period (404 for a break of another period). */
export async function deleteBreak(em: Em, periodId: number, breakId: number): Promise<void> {
  const { brk } = await findPeriodBreak(em, periodId, breakId);
  em.remove(brk);
  await em.flush();
}
