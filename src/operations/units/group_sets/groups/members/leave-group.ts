// A student leaving a group, or taken out of it (DELETE .../members/{id}).
import type { IGroup, IGroupSet } from '../../../../../../schema/index.ts';
import { db } from '../../../../../db/kysely.ts';
import type { Em } from '../../../../../db/orm.ts';
import { leaveRefusal, studentName } from '../../../../../domain/group-members.ts';
import { forbidden } from '../../../../../lib/errors.ts';
import { membershipInSet } from '../../set-membership.ts';
import type { MemberProject } from './join-group.ts';

/** Ends a project's membership of a group; the row stays, inactive, so the group's history survives. */
export async function leaveGroup(em: Em, groupId: number, projectId: number): Promise<void> {
  await db(em)
    .updateTable('group_memberships')
    .set({ active: false, updated_at: new Date().toISOString() })
    .where('group_id', '=', groupId)
    .where('project_id', '=', projectId)
    .where('active', '=', true)
    .execute();
}

/**
 * Takes the member out of the group, once the caller's right to manage it is checked: each refusal
 * a 403, in the original's order (locked, may not manage the student, not a member).
 */
export async function removeGroupMember(em: Em, group: IGroup, set: IGroupSet, member: MemberProject): Promise<true> {
  const current = await membershipInSet(em, member.id, set.id);
  const message = leaveRefusal({
    mayManageGroup: true, // the caller's scope has checked the group's manage_group
    groupLocked: group.locked,
    setLocked: set.locked,
    mayManageStudent: member.mayManageStudent,
    isMember: current?.group_id === group.id,
    name: studentName(member.first_name, member.last_name),
  });
  if (message !== null) throw forbidden(message);
  await leaveGroup(em, group.id, member.id);
  return true;
}
