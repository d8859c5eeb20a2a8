import { z } from 'zod';
import { TeachingPeriod, Unit, type IUnit } from '../../../schema/index.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { forbidden } from '../../trpc/errors.ts';
import { formBool, idField } from '../../trpc/fields.ts';
import type { Storage } from '../../storage/index.ts';
import { findOr404 } from '../../trpc/lookup.ts';
import { rolloverUnit } from '../units/copy.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';

export const rolloverTeachingPeriodInput = z.object({
  existing_teaching_period_id: idField(),
  new_teaching_period_id: idField(),
  rollover_inactive: formBool().default(false),
  search_forward: formBool().default(true),
});

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

export const rolloverTeachingPeriodProcedure = systemMutation(rolloverTeachingPeriodInput, {
  action: 'rollover',
  refused: 'Not authorised to rollover a teaching period',
})
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/teaching_periods/{existing_teaching_period_id}/rollover',
      tags: ['Teaching periods'],
      summary: 'Roll every unit of a teaching period into a later one (Admin)',
      description:
        'Copies each active unit (all with `rollover_inactive=true`) as POST /api/units/{id}/rollover does. With `search_forward` (default true) a unit is copied from its newest same-code unit in the periods between the two. Units whose code the new period already has are skipped. The new period must start in the future and after this one (403). Answers JSON null.',
    },
    rest: { status: 200 },
  })
  .output(z.null())
  .mutation(async ({ ctx, input }) => {
    await rolloverTeachingPeriod(ctx.em, {
      sourceId: input.existing_teaching_period_id,
      targetId: input.new_teaching_period_id,
      rolloverInactive: input.rollover_inactive,
      searchForward: input.search_forward,
      now: ctx.clock.now(),
      storage: ctx.storage,
    });
    return null;
  });
