import { canInGroup } from '../../../../../policy/index.ts';
import { forbidden } from '../../../../../trpc/errors.ts';
import { groupMutation, setFlags } from '../../../../../trpc/scopes/index.ts';
import { joinGroup } from './operations.ts';
import { addedMemberOut, addMemberInput } from './schemas.ts';

export const addGroupMember = groupMutation(addMemberInput, {
  action: 'join_group',
  refused: (_group, set) => (set.locked ? 'All of these groups are now locked' : 'Not authorised to manage this group'),
  member: { field: 'project_id', enrolledOnly: true },
})
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/units/{unit_id}/group_sets/{group_set_id}/groups/{group_id}/members/{project_id}',
      tags: ['Group sets and groups'],
      summary: 'Put an enrolled student in a group (unit staff; a student joining when the set lets students manage groups)',
      description:
        "The project must be enrolled in the unit (404). Checked in the original's order, each a 403: the set lets the caller join groups (\"All of these groups are now locked\" when the set is locked); the caller may manage the student (a student only themselves); in a set that keeps groups in one class, the student is in the group's tutorial; not already a member; the group is not locked; below capacity (the set's capacity plus the group's adjustment), which convenors and admins may exceed and tutors and students may not. A student is in one group per set: a membership elsewhere in the set moves here. Answers 200 with the spec's add form.",
    },
    rest: { status: 200 },
  })
  .output(addedMemberOut)
  .mutation(async ({ ctx }) => {
    const { group, groupSet, member: p } = ctx;
    const outcome = await joinGroup(ctx.em, group.id, p.id, {
      mayJoin: true, // the builder has checked the set's join_group
      mayManageStudent: p.mayManageStudent,
      mayExceedCapacity: canInGroup(ctx.groupRole, 'can_exceed_capacity', group, setFlags(groupSet)),
    });
    if (!outcome.ok) throw forbidden(outcome.message);
    return {
      id: p.id,
      student_username: p.username,
      student_first_name: p.first_name,
      student_last_name: p.last_name,
      student_nickname: p.nickname,
      target_grade: p.target_grade,
    };
  });
