import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';

/** A stream as the unit shows it: `activity_type` is the activity type's abbreviation. */
export interface TutorialStreamOut {
  id: number;
  name: string;
  abbreviation: string;
  activity_type: string;
}

function streamRows(em: Em) {
  return db(em)
    .selectFrom('tutorial_streams as s')
    .innerJoin('activity_types as a', 'a.id', 's.activity_type_id')
    .select(['s.id', 's.unit_id', 's.name', 's.abbreviation', 'a.abbreviation as activity_type']);
}

/** Streams of several units in one query, grouped by unit (the `tutorial_streams` of GET /api/units/{id}). */
export async function streamsOfUnits(em: Em, unitIds: readonly number[]): Promise<Map<number, TutorialStreamOut[]>> {
  const byUnit = new Map<number, TutorialStreamOut[]>(unitIds.map((id) => [id, []]));
  if (unitIds.length === 0) return byUnit;
  const rows = await streamRows(em)
    .where('s.unit_id', 'in', [...unitIds])
    .orderBy('s.id')
    .execute();
  for (const { unit_id, ...stream } of rows) byUnit.get(unit_id)?.push(stream);
  return byUnit;
}

/** A unit's streams, in one query. */
export async function streamsOfUnit(em: Em, unitId: number): Promise<TutorialStreamOut[]> {
  return (await streamsOfUnits(em, [unitId])).get(unitId) ?? [];
}

/** One stream by id, in one query. */
export async function streamById(em: Em, id: number): Promise<TutorialStreamOut | null> {
  const row = await streamRows(em).where('s.id', '=', id).executeTakeFirst();
  if (!row) return null;
  const { unit_id: _unit, ...stream } = row;
  return stream;
}
