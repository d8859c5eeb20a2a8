import { TeachingPeriod, Unit, type IUnit } from '../../../schema/index.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import type { Storage } from '../../storage/index.ts';
import { forbidden } from '../../lib/errors.ts';
import { findOr404 } from '../../db/lookup.ts';
import { rolloverUnit } from '../units/rollover-unit.ts';

export interface PeriodRollover {
  sourceId: number;
  targetId: number;
  rolloverInactive: boolean;
  searchForward: boolean;
  now: Date;
  /** Where the units' task sheets and resources are copied. */
  storage: Storage;
}

/**
 * Rolls every unit of a period into a later one (behaviour.md §7.5). With `searchForward`, a unit
 * is copied from its most recent same-code successor in the periods between the two, if any; codes
 * the target already has are skipped. Answers the units made.
 */
export async function rolloverTeachingPeriod(em: Em, r: PeriodRollover): Promise<IUnit[]> {
  const source = await findOr404(em, TeachingPeriod, r.sourceId);
  const target = await findOr404(em, TeachingPeriod, r.targetId);
  if (target.startDate.getTime() <= r.now.getTime() || target.startDate.getTime() <= source.startDate.getTime()) {
    throw forbidden('Units can only be rolled over to future teaching periods');
  }
  const units = await em.find(Unit, { teachingPeriod: source.id, ...(r.rolloverInactive ? {} : { active: true }) }, { orderBy: { code: 'asc', id: 'asc' } });
  const taken = new Set((await db(em).selectFrom('units').select('code').where('teaching_period_id', '=', target.id).execute()).map((u) => u.code));
  const later = new Map<string, number>();
  if (r.searchForward && units.length > 0) {
    // The newest unit of each code in the periods that start after the source ends and before the target starts.
    const rows = await db(em)
      .selectFrom('units as u')
      .innerJoin('teaching_periods as p', 'p.id', 'u.teaching_period_id')
      .select(['u.id', 'u.code'])
      .where(
        'u.code',
        'in',
        units.map((u) => u.code),
      )
      .where('p.start_date', '>', source.endDate.toISOString())
      .where('p.start_date', '<', target.startDate.toISOString())
      .orderBy('p.start_date', 'asc')
      .orderBy('u.id', 'asc')
      .execute();
    for (const row of rows) later.set(row.code, row.id);
  }
  const made: IUnit[] = [];
  for (const unit of units) {
    if (taken.has(unit.code)) continue;
    const from = later.has(unit.code) ? await em.findOneOrFail(Unit, { id: later.get(unit.code)! }) : unit;
    made.push(await rolloverUnit(em, from as IUnit, { teachingPeriodId: target.id }, r.storage));
    taken.add(unit.code);
  }
  return made;
}
