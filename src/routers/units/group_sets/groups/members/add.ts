import { addGroupMember as add } from '../../../../../operations/units/group_sets/groups/members/join-group.ts';
import { canInGroup } from '../../../../../policy/index.ts';
import { route } from '../../../../../trpc/route.ts';
import { groupMutation, setFlags } from '../../../../../trpc/scopes/index.ts';
import { addedMemberOut, addMemberInput } from './schemas.ts';

export const addGroupMember = groupMutation(addMemberInput, {
  action: 'join_group',
  refused: (_group, set) => (set.locked ? 'All of these groups are now locked' : 'Not authorised to manage this group'),
  member: { field: 'project_id', enrolledOnly: true },
})
  .meta(
    route(
      'POST',
      '/api/units/{unit_id}/group_sets/{group_set_id}/groups/{group_id}/members/{project_id}',
      'Group sets and groups',
      'Put an enrolled student in a group (unit staff; a student joining when the set lets students manage groups)',
      {
        description:
          "The project must be enrolled in the unit (404); a membership elsewhere in the set moves here. Each refusal is a 403, in the original's order. " +
          "Answers 200 with the spec's add form. See docs/api/users.md.",
        rest: { status: 200 },
      },
    ),
  )
  .output(addedMemberOut)
  .mutation(({ ctx }) =>
    add(ctx.em, ctx.group.id, ctx.member, { mayExceedCapacity: canInGroup(ctx.groupRole, 'can_exceed_capacity', ctx.group, setFlags(ctx.groupSet)) }),
  );
