// A project's membership in a group set: a student is in at most one group of each set.
import { GroupMembership } from '../../../../schema/index.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';

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

/** Does a group (by id) or any group of a set (by set id) have a submission? Such groups are not deleted. */
export async function anySubmissions(em: Em, groupIds: { column: 'g.id' | 'g.group_set_id'; id: number }): Promise<boolean> {
  const row = await db(em)
    .selectFrom('group_submissions as s')
    .innerJoin('groups as g', 'g.id', 's.group_id')
    .select('s.id')
    .where(groupIds.column, '=', groupIds.id)
    .executeTakeFirst();
  return row !== undefined;
}
