// How many engagements each of a unit's projects has: one grouped statement, for lists of students
// (the unit's students CSV).
import { sql } from 'kysely';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';

export async function engagementCountsByProject(em: Em, unitId: number): Promise<Map<number, number>> {
  const rows = await db(em)
    .selectFrom('engagements as e')
    .innerJoin('projects as p', 'p.id', 'e.project_id')
    .select(['e.project_id', sql<number>`count(*)::int`.as('count')])
    .where('p.unit_id', '=', unitId)
    .groupBy('e.project_id')
    .execute();
  return new Map(rows.map((r) => [r.project_id, r.count]));
}
