// A unit's intended learning outcomes as rows in the wire shape (the unit's `ilos`, the outcome
// procedures' answers).
import type { ILearningOutcome } from '../../../../schema/index.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';

export const MAX_DESCRIPTION = 4095;

export interface OutcomeRow {
  id: number;
  ilo_number: number;
  abbreviation: string;
  name: string;
  description: string;
}

export function toOutcome(o: ILearningOutcome): OutcomeRow {
  return { id: o.id, ilo_number: o.iloNumber, abbreviation: o.abbreviation, name: o.name, description: o.description };
}

/** A unit's outcomes in `ilo_number` order: one query, rows already in the wire shape. */
export function loadOutcomes(em: Em, unitId: number): Promise<OutcomeRow[]> {
  return db(em)
    .selectFrom('learning_outcomes')
    .select(['id', 'ilo_number', 'abbreviation', 'name', 'description'])
    .where('unit_id', '=', unitId)
    .orderBy('ilo_number')
    .orderBy('id')
    .execute();
}

/** The outcomes of several units (rollover, listings), grouped by unit id: one query. */
export async function loadOutcomesByUnit(em: Em, unitIds: readonly number[]): Promise<Map<number, OutcomeRow[]>> {
  const byUnit = new Map<number, OutcomeRow[]>(unitIds.map((id) => [id, []]));
  if (unitIds.length === 0) return byUnit;
  const rows = await db(em)
    .selectFrom('learning_outcomes')
    .select(['unit_id', 'id', 'ilo_number', 'abbreviation', 'name', 'description'])
    .where('unit_id', 'in', [...unitIds])
    .orderBy('unit_id')
    .orderBy('ilo_number')
    .orderBy('id')
    .execute();
  for (const { unit_id, ...outcome } of rows) byUnit.get(unit_id)?.push(outcome);
  return byUnit;
}
