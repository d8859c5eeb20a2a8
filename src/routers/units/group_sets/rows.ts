// Group sets and groups read as plain rows in the shapes the API answers with, one query per
// collection: a unit's sets, a unit's or a set's groups with their member counts.
import { sql } from 'kysely';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import type { GroupOut, GroupSetOut } from './schemas.ts';

const SET_COLUMNS = [
  'id',
  'name',
  'allow_students_to_create_groups',
  'allow_students_to_manage_groups',
  'keep_groups_in_same_class',
  'capacity',
  'locked',
] as const;

/** A unit's group sets, in one query (the `group_sets` of GET /api/units/{id}). */
export async function groupSetsOfUnit(em: Em, unitId: number): Promise<GroupSetOut[]> {
  return db(em).selectFrom('group_sets').select(SET_COLUMNS).where('unit_id', '=', unitId).orderBy('id').execute();
}

export async function groupSetById(em: Em, id: number): Promise<GroupSetOut | null> {
  return (await db(em).selectFrom('group_sets').select(SET_COLUMNS).where('id', '=', id).executeTakeFirst()) ?? null;
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
