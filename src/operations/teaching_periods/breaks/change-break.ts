// POST /api/teaching_periods/{teaching_period_id}/breaks and PUT .../breaks/{id}: a break added to
// a period, or moved or lengthened; either way checked against the period and its other breaks.
import { Break, TeachingPeriod, type IBreak } from '../../../../schema/index.ts';
import type { Em } from '../../../db/orm.ts';
import type { BreakSpan } from '../../../domain/teaching-periods.ts';
import { findOr404 } from '../../../db/lookup.ts';
import { findPeriodBreak } from './find-period-break.ts';
import { validateBreak } from './validate-break.ts';

/** Adds a break to the period (404 for an unknown period, 400 for a break outside it or overlapping another). */
export async function createBreak(em: Em, periodId: number, span: BreakSpan): Promise<IBreak> {
  const period = await findOr404(em, TeachingPeriod, periodId);
  await validateBreak(em, period, span);
  const created = em.create(Break, { teachingPeriod: period, ...span });
  await em.flush();
  return created;
}

/** Changes a break's start or length (what is not given stays), checked as a new one is. */
export async function updateBreak(em: Em, periodId: number, breakId: number, change: Partial<BreakSpan>): Promise<IBreak> {
  const { period, brk } = await findPeriodBreak(em, periodId, breakId);
  const span = { startDate: change.startDate ?? brk.startDate, numberOfWeeks: change.numberOfWeeks ?? brk.numberOfWeeks };
  await validateBreak(em, period, span, brk);
  em.assign(brk, span);
  await em.flush();
  return brk;
}
