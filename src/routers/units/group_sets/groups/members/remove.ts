import { z } from 'zod';
import { leaveRefusal, studentName } from '../../../../../domain/group-members.ts';
import { forbidden } from '../../../../../trpc/errors.ts';
import { groupMutation } from '../../../../../trpc/scopes/index.ts';
import { membershipInSet } from '../../operations.ts';
import { leaveGroup } from './operations.ts';
import { removeMemberInput } from './schemas.ts';

export const removeGroupMember = groupMutation(removeMemberInput, {
  action: 'manage_group',
  refused: (group, set) => (group.locked || set.locked ? 'This group is locked' : 'Not authorised to manage this group'),
  member: { field: 'id', enrolledOnly: false },
})
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/units/{unit_id}/group_sets/{group_set_id}/groups/{group_id}/members/{id}',
      tags: ['Group sets and groups'],
      summary: 'Take a student out of a group (unit staff; a member leaving when the set lets students manage groups)',
      description:
        '`id` is the project id; a project outside the unit is a 404. Each a 403, in the original\'s order: the caller may manage the group ("This group is locked" when the group or its set is locked); the caller may manage the student (a student only themselves); the student is an active member ("<name> is not a member of this group"). The membership is kept, inactive. Answers `true`.',
    },
    rest: { status: 200 },
  })
  .output(z.literal(true))
  .mutation(async ({ ctx }) => {
    const { group, groupSet, member } = ctx;
    const current = await membershipInSet(ctx.em, member.id, groupSet.id);
    const message = leaveRefusal({
      mayManageGroup: true, // the builder has checked the group's manage_group
      groupLocked: group.locked,
      setLocked: groupSet.locked,
      mayManageStudent: member.mayManageStudent,
      isMember: current?.group_id === group.id,
      name: studentName(member.first_name, member.last_name),
    });
    if (message !== null) throw forbidden(message);
    await leaveGroup(ctx.em, group.id, member.id);
    return true as const;
  });
