// Creating, changing and deleting groups of a set, by the rules of the REST routes, so the group
// CSV import, rollover and the seed script follow them too.
import { Group, Tutorial, type IGroup, type IGroupSet } from '../../../../../schema/index.ts';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { refId } from '../../../../db/refs.ts';
import { generatedGroupName, GROUP_HAS_SUBMISSIONS, GROUP_NAME_TAKEN } from '../../../../domain/groups.ts';
import { badRequest, forbidden, notFound } from '../../../../lib/errors.ts';
import { enrolInTutorial } from '../../tutorials/enrolments/enrol-in-tutorial.ts';
import { unitIdOfSet } from '../change-group-set.ts';
import { addMember, anySubmissions, inTutorial, membershipInSet } from '../set-membership.ts';

export const UNKNOWN_TUTORIAL = 'Unable to find requested Tutorial';
export const tutorialIdOfGroup = (group: IGroup) => refId(group.tutorial);

export const nameNotUnique = (setName: string) => `This group name is not unique to the ${setName} group set.`;
export const alreadyInGroup = (setName: string) => `You are already in a group for ${setName}`;
export const onlyFromTutorial = (abbreviation: string) => `Students from the tutorial '${abbreviation}' can only be added to this group.`;

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
