import { Break, TeachingPeriod, type IBreak, type ITeachingPeriod } from '../../../../schema/index.ts';
import type { Em } from '../../../db/orm.ts';
import { notFound } from '../../../lib/errors.ts';
import { findOr404 } from '../../../db/lookup.ts';

/** The period and one of its breaks; a break of another period is as unknown as a missing one (404). */
export async function findPeriodBreak(em: Em, periodId: number, breakId: number): Promise<{ period: ITeachingPeriod; brk: IBreak }> {
  const period = await findOr404(em, TeachingPeriod, periodId);
  const brk = await em.findOne(Break, { id: breakId, teachingPeriod: period.id });
  if (!brk) throw notFound('Unable to find requested Break');
  return { period, brk };
}
