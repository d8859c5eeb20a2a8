import { Break, type IBreak, type ITeachingPeriod } from '../../../../schema/index.ts';
import type { Em } from '../../../db/orm.ts';
import { breakErrors, type BreakSpan } from '../../../domain/teaching-periods.ts';
import { failIfInvalid } from '../validate-teaching-period.ts';

/** Checks a break against its period and the period's other breaks (400 "Validation failed: ..."). */
export async function validateBreak(em: Em, period: ITeachingPeriod, candidate: BreakSpan, self?: IBreak): Promise<void> {
  const others = await em.find(Break, {
    teachingPeriod: period.id,
    ...(self ? { id: { $ne: self.id } } : {}),
  });
  failIfInvalid(breakErrors(candidate, period, others));
}
