// Group sets read as plain rows in the shape the API answers with.
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';

/** The spec's Group set (`groupSetOut` of src/routers/units/group_sets/schemas.ts). */
export interface GroupSetOut {
  id: number;
  name: string;
  allow_students_to_create_groups: boolean;
  allow_students_to_manage_groups: boolean;
  keep_groups_in_same_class: boolean;
  capacity: number | null;
  locked: boolean;
}

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
