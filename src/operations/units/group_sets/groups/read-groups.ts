// Groups read as plain rows in the shape the API answers with, one query per collection: a
// unit's or a set's groups with their member counts.
import { sql } from 'kysely';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';

/** A group as the group list and the unit show it (`groupOut` of src/routers/units/group_sets/schemas.ts). */
export interface GroupOut {
  id: number;
  name: string;
  tutorial_id: number;
  group_set_id: number;
  student_count: number;
  capacity_adjustment: number;
  locked: boolean;
}

// `student_count` counts active memberships, as the original's list does; PostgreSQL aggregates it.
function groupRows(em: Em) {
  return db(em)
    .selectFrom('groups as g')
    .select(['g.id', 'g.name', 'g.tutorial_id', 'g.group_set_id', 'g.capacity_adjustment', 'g.locked'])
    .select((eb) =>
      eb
        .selectFrom('group_memberships as m')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('m.group_id', '=', 'g.id')
        .where('m.active', '=', true)
        .as('student_count'),
    );
}

const counted = <T extends { student_count: number | null }>(row: T) => ({ ...row, student_count: row.student_count ?? 0 });

/** Every group of every set of a unit, in one query (the `groups` of GET /api/units/{id}). */
export async function groupsOfUnit(em: Em, unitId: number): Promise<GroupOut[]> {
  const rows = await groupRows(em).innerJoin('group_sets as gs', 'gs.id', 'g.group_set_id').where('gs.unit_id', '=', unitId).orderBy('g.id').execute();
  return rows.map(counted);
}

/** The groups of one set, in one query. */
export async function groupsOfSet(em: Em, groupSetId: number): Promise<GroupOut[]> {
  return (await groupRows(em).where('g.group_set_id', '=', groupSetId).orderBy('g.id').execute()).map(counted);
}

export async function groupById(em: Em, id: number): Promise<GroupOut | null> {
  const row = await groupRows(em).where('g.id', '=', id).executeTakeFirst();
  return row ? counted(row) : null;
}
