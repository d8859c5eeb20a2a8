// Group sets, groups and memberships as plain functions taking `em`, so the member operations,
// the group CSV imports, rollover and the seed script follow the same rules as the REST routes.
import { Group, GroupMembership, GroupSet, Tutorial, type IGroup, type IGroupSet } from '../../../../schema/index.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import {
  generatedGroupName,
  GROUP_HAS_SUBMISSIONS,
  GROUP_NAME_TAKEN,
  MEMBERS_OUTSIDE_TUTORIAL,
  SET_CAPACITY_TOO_SMALL,
  SET_NAME_TAKEN,
  validSetCapacity,
} from '../../../domain/groups.ts';
import { badRequest, forbidden, notFound } from '../../../trpc/errors.ts';
import { enrolInTutorial } from '../../../operations/units/tutorials/enrolments/enrol-in-tutorial.ts';

export const UNKNOWN_TUTORIAL = 'Unable to find requested Tutorial';
const refId = (ref: unknown) => (ref as { id: number }).id;
export const unitIdOfSet = (set: IGroupSet) => refId(set.unit);
export const tutorialIdOfGroup = (group: IGroup) => refId(group.tutorial);

async function tutorialOfUnit(em: Em, unitId: number, tutorialId: number) {
  const tutorial = await db(em)
    .selectFrom('tutorials')
    .select(['id', 'abbreviation'])
    .where('id', '=', tutorialId)
    .where('unit_id', '=', unitId)
    .executeTakeFirst();
  if (!tutorial) throw notFound(UNKNOWN_TUTORIAL);
  return tutorial;
}

// ---- Membership -------------------------------------------------------------------------------

/** The project's active membership in any group of the set (a student is in one group per set). */
export async function membershipInSet(em: Em, projectId: number, groupSetId: number): Promise<{ id: number; group_id: number } | null> {
  const row = await db(em)
    .selectFrom('group_memberships as m')
    .innerJoin('groups as g', 'g.id', 'm.group_id')
    .select(['m.id', 'm.group_id'])
    .where('m.project_id', '=', projectId)
    .where('g.group_set_id', '=', groupSetId)
    .where('m.active', '=', true)
    .orderBy('m.id')
    .executeTakeFirst();
  return row ?? null;
}

/** Is the project enrolled in this tutorial? (Keep-in-class sets take members from the group's tutorial only.) */
export async function inTutorial(em: Em, projectId: number, tutorialId: number): Promise<boolean> {
  const row = await db(em)
    .selectFrom('tutorial_enrolments')
    .select('id')
    .where('project_id', '=', projectId)
    .where('tutorial_id', '=', tutorialId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Makes the project an active member of the group. Its active membership in another group of the
 * set moves here (one group per set); otherwise a new membership is made.
 */
export async function addMember(em: Em, input: { groupId: number; groupSetId: number; projectId: number }): Promise<void> {
  const current = await membershipInSet(em, input.projectId, input.groupSetId);
  if (current) {
    if (current.group_id !== input.groupId) await em.nativeUpdate(GroupMembership, { id: current.id }, { group: input.groupId, updatedAt: new Date() });
    return;
  }
  const now = new Date();
  await em.insert(GroupMembership, { group: input.groupId, project: input.projectId, active: true, createdAt: now, updatedAt: now });
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

// ---- Group sets -------------------------------------------------------------------------------

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

/** A new group set of the unit: its name unique in the unit, its capacity none or at least 2 (400). */
export async function createGroupSet(em: Em, unitId: number, fields: GroupSetFields & { name: string }): Promise<IGroupSet> {
  if (fields.capacity !== undefined && !validSetCapacity(fields.capacity)) throw badRequest(SET_CAPACITY_TOO_SMALL);
  await checkSetName(em, unitId, fields.name);
  const set = em.create(GroupSet, { unit: unitId, name: fields.name });
  applySetFields(set, fields);
  await em.flush();
  return set;
}

/**
 * Changes a group set. As for creation; a set that keeps groups in one class (newly or already)
 * refuses the change while an active member of one of its groups is outside that group's tutorial.
 */
export async function updateGroupSet(em: Em, set: IGroupSet, fields: GroupSetFields): Promise<void> {
  if (fields.capacity !== undefined && !validSetCapacity(fields.capacity)) throw badRequest(SET_CAPACITY_TOO_SMALL);
  if (fields.name !== undefined && fields.name !== set.name) await checkSetName(em, unitIdOfSet(set), fields.name, set.id);
  const keep = fields.keep_groups_in_same_class ?? set.keepGroupsInSameClass;
  if (keep && (await setHasMembersOutsideTutorial(em, set.id))) throw badRequest(MEMBERS_OUTSIDE_TUTORIAL);
  applySetFields(set, fields);
  await em.flush();
}

async function anySubmissions(em: Em, groupIds: { column: 'g.id' | 'g.group_set_id'; id: number }): Promise<boolean> {
  const row = await db(em)
    .selectFrom('group_submissions as s')
    .innerJoin('groups as g', 'g.id', 's.group_id')
    .select('s.id')
    .where(groupIds.column, '=', groupIds.id)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Deletes a set with its groups and their memberships; task definitions on it become individual
 * tasks. Refused (400) while one of its groups has a submission.
 */
export async function deleteGroupSet(em: Em, set: IGroupSet): Promise<void> {
  if (await anySubmissions(em, { column: 'g.group_set_id', id: set.id })) throw badRequest(GROUP_HAS_SUBMISSIONS);
  await em.nativeDelete(GroupSet, { id: set.id });
}

// ---- Groups -----------------------------------------------------------------------------------

export const nameNotUnique = (setName: string) => `This group name is not unique to the ${setName} group set.`;
export const alreadyInGroup = (setName: string) => `You are already in a group for ${setName}`;
export const onlyFromTutorial = (abbreviation: string) => `Students from the tutorial '${abbreviation}' can only be added to this group.`;

export interface NewGroup {
  groupSet: IGroupSet;
  tutorialId: number;
  /** Blank or absent: "Group N". */
  name?: string;
  capacityAdjustment?: number;
  /** A student creating the group: they must be in no group of the set yet, and join this one. */
  creatorProjectId?: number;
}

/**
 * Creates a group in a set, in a tutorial of the set's unit (404 otherwise). A name already used
 * in the set is refused (403); a student creator already in a group of the set is refused (403),
 * as is one outside the tutorial when the set keeps groups in one class; otherwise they join it.
 */
export async function createGroup(em: Em, input: NewGroup): Promise<IGroup> {
  const set = input.groupSet;
  const tutorial = await tutorialOfUnit(em, unitIdOfSet(set), input.tutorialId);
  const names = new Set((await db(em).selectFrom('groups').select('name').where('group_set_id', '=', set.id).execute()).map((g) => g.name));
  const wanted = input.name?.trim() ?? '';
  if (wanted !== '' && names.has(wanted)) throw forbidden(nameNotUnique(set.name));
  if (input.creatorProjectId !== undefined) {
    if (await membershipInSet(em, input.creatorProjectId, set.id)) throw forbidden(alreadyInGroup(set.name));
    if (set.keepGroupsInSameClass && !(await inTutorial(em, input.creatorProjectId, tutorial.id))) throw forbidden(onlyFromTutorial(tutorial.abbreviation));
  }
  const group = em.create(Group, {
    groupSet: set.id,
    tutorial: tutorial.id,
    name: wanted !== '' ? wanted : generatedGroupName(names, names.size),
    capacityAdjustment: input.capacityAdjustment ?? 0,
    locked: false,
  });
  await em.flush();
  if (input.creatorProjectId !== undefined) await addMember(em, { groupId: group.id, groupSetId: set.id, projectId: input.creatorProjectId });
  return group;
}

export interface GroupChanges {
  name?: string;
  tutorialId?: number;
  capacityAdjustment?: number;
  locked?: boolean;
}

/**
 * Changes a group (the caller's rights to each change are checked before). Names stay unique in
 * the set (400). Moving a group of a keep-in-class set to another tutorial enrols each active
 * member in it; when one cannot move, nothing changes (403).
 */
export async function updateGroup(em: Em, group: IGroup, set: IGroupSet, changes: GroupChanges): Promise<void> {
  if (changes.name !== undefined && changes.name !== group.name) {
    if (await em.count(Group, { groupSet: set.id, name: changes.name, id: { $ne: group.id } })) throw badRequest(GROUP_NAME_TAKEN);
    group.name = changes.name;
  }
  if (changes.capacityAdjustment !== undefined) group.capacityAdjustment = changes.capacityAdjustment;
  if (changes.locked !== undefined) group.locked = changes.locked;
  const moving = changes.tutorialId !== undefined && changes.tutorialId !== tutorialIdOfGroup(group);
  if (moving) group.tutorial = em.getReference(Tutorial, (await tutorialOfUnit(em, unitIdOfSet(set), changes.tutorialId!)).id);
  await em.flush();
  if (moving && set.keepGroupsInSameClass) await moveMembersTo(em, group.id, changes.tutorialId!);
}

async function moveMembersTo(em: Em, groupId: number, tutorialId: number): Promise<void> {
  const members = await db(em)
    .selectFrom('group_memberships as m')
    .innerJoin('projects as p', 'p.id', 'm.project_id')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.id', 'u.first_name', 'u.last_name'])
    .where('m.group_id', '=', groupId)
    .where('m.active', '=', true)
    .where('p.enrolled', '=', true)
    .orderBy('m.id')
    .execute();
  for (const member of members) {
    try {
      // The group moves whole, so a full tutorial does not hold one member back.
      await enrolInTutorial(em, { projectId: member.id, tutorialId, mayExceedCapacity: true });
    } catch {
      throw forbidden(`Unable to move group as ${member.first_name} ${member.last_name} could not switch tutorial.`);
    }
  }
}

/** Deletes a group and its memberships; refused (400) while it has a submission. */
export async function deleteGroup(em: Em, group: IGroup): Promise<void> {
  if (await anySubmissions(em, { column: 'g.id', id: group.id })) throw badRequest(GROUP_HAS_SUBMISSIONS);
  await em.nativeDelete(Group, { id: group.id });
}

/** The users of the group's active, enrolled members (who may delete a group they are alone in). */
export async function memberUserIds(em: Em, groupId: number): Promise<number[]> {
  const rows = await db(em)
    .selectFrom('group_memberships as m')
    .innerJoin('projects as p', 'p.id', 'm.project_id')
    .select('p.user_id')
    .where('m.group_id', '=', groupId)
    .where('m.active', '=', true)
    .where('p.enrolled', '=', true)
    .execute();
  return rows.map((r) => r.user_id);
}
