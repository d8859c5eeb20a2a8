// Creating, changing and deleting a unit's group sets.
import { GroupSet, type IGroupSet } from '../../../../schema/index.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { refId } from '../../../db/refs.ts';
import { GROUP_HAS_SUBMISSIONS, MEMBERS_OUTSIDE_TUTORIAL, SET_CAPACITY_TOO_SMALL, SET_NAME_TAKEN, validSetCapacity } from '../../../domain/groups.ts';
import { badRequest } from '../../../lib/errors.ts';
import { groupSetById, type GroupSetOut } from './read-group-sets.ts';
import { anySubmissions } from './set-membership.ts';

export const unitIdOfSet = (set: IGroupSet) => refId(set.unit);

export interface GroupSetFields {
  name?: string;
  allow_students_to_create_groups?: boolean;
  allow_students_to_manage_groups?: boolean;
  keep_groups_in_same_class?: boolean;
  capacity?: number | null;
  locked?: boolean;
}

async function checkSetName(em: Em, unitId: number, name: string, exceptId?: number): Promise<void> {
  const taken = await em.count(GroupSet, { unit: unitId, name, ...(exceptId ? { id: { $ne: exceptId } } : {}) });
  if (taken) throw badRequest(SET_NAME_TAKEN);
}

function applySetFields(set: IGroupSet, fields: GroupSetFields): void {
  if (fields.name !== undefined) set.name = fields.name;
  if (fields.allow_students_to_create_groups !== undefined) set.allowStudentsToCreateGroups = fields.allow_students_to_create_groups;
  if (fields.allow_students_to_manage_groups !== undefined) set.allowStudentsToManageGroups = fields.allow_students_to_manage_groups;
  if (fields.keep_groups_in_same_class !== undefined) set.keepGroupsInSameClass = fields.keep_groups_in_same_class;
  if (fields.capacity !== undefined) set.capacity = fields.capacity;
  if (fields.locked !== undefined) set.locked = fields.locked;
}

/** Active members of enrolled projects outside their group's tutorial, in any group of the set. */
async function setHasMembersOutsideTutorial(em: Em, groupSetId: number): Promise<boolean> {
  const row = await db(em)
    .selectFrom('group_memberships as m')
    .innerJoin('groups as g', 'g.id', 'm.group_id')
    .innerJoin('projects as p', 'p.id', 'm.project_id')
    .select('m.id')
    .where('g.group_set_id', '=', groupSetId)
    .where('m.active', '=', true)
    .where('p.enrolled', '=', true)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('tutorial_enrolments as e').select('e.id').whereRef('e.project_id', '=', 'm.project_id').whereRef('e.tutorial_id', '=', 'g.tutorial_id'),
        ),
      ),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/** A new group set of the unit: its name unique in the unit, its capacity none or at least 2 (400). */
export async function createGroupSet(em: Em, unitId: number, fields: GroupSetFields & { name: string }): Promise<GroupSetOut> {
  if (fields.capacity !== undefined && !validSetCapacity(fields.capacity)) throw badRequest(SET_CAPACITY_TOO_SMALL);
  await checkSetName(em, unitId, fields.name);
  const set = em.create(GroupSet, { unit: unitId, name: fields.name });
  applySetFields(set, fields);
  await em.flush();
  return (await groupSetById(em, set.id))!;
}

/**
 * Changes a group set. As for creation; a set that keeps groups in one class (newly or already)
 * refuses the change while an active member of one of its groups is outside that group's tutorial.
 */
export async function updateGroupSet(em: Em, set: IGroupSet, fields: GroupSetFields): Promise<GroupSetOut> {
  if (fields.capacity !== undefined && !validSetCapacity(fields.capacity)) throw badRequest(SET_CAPACITY_TOO_SMALL);
  if (fields.name !== undefined && fields.name !== set.name) await checkSetName(em, unitIdOfSet(set), fields.name, set.id);
  const keep = fields.keep_groups_in_same_class ?? set.keepGroupsInSameClass;
  if (keep && (await setHasMembersOutsideTutorial(em, set.id))) throw badRequest(MEMBERS_OUTSIDE_TUTORIAL);
  applySetFields(set, fields);
  await em.flush();
  return (await groupSetById(em, set.id))!;
}

/**
 * Deletes a set with its groups and their memberships; task definitions on it become individual
 * tasks. Refused (400) while one of its groups has a submission.
 */
export async function deleteGroupSet(em: Em, set: IGroupSet): Promise<true> {
  if (await anySubmissions(em, { column: 'g.group_set_id', id: set.id })) throw badRequest(GROUP_HAS_SUBMISSIONS);
  await em.nativeDelete(GroupSet, { id: set.id });
  return true;
}
