import { z } from 'zod';
import { removeGroupMember as remove } from '../../../../../operations/units/group_sets/groups/members/leave-group.ts';
import { route } from '../../../../../trpc/route.ts';
import { groupMutation } from '../../../../../trpc/scopes/index.ts';
import { removeMemberInput } from './schemas.ts';

export const removeGroupMember = groupMutation(removeMemberInput, {
  action: 'manage_group',
  refused: (group, set) => (group.locked || set.locked ? 'This group is locked' : 'Not authorised to manage this group'),
  member: { field: 'id', enrolledOnly: false },
})
  .meta(
    route(
      'DELETE',
      '/api/units/{unit_id}/group_sets/{group_set_id}/groups/{group_id}/members/{id}',
      'Group sets and groups',
      'Take a student out of a group (unit staff; a member leaving when the set lets students manage groups)',
      {
        description:
          "`id` is the project id; a project outside the unit is a 404. Each refusal is a 403, in the original's order; the membership is kept, inactive. " +
          'Answers `true`. See docs/api/users.md.',
        rest: { status: 200 },
      },
    ),
  )
  .output(z.literal(true))
  .mutation(({ ctx }) => remove(ctx.em, ctx.group, ctx.groupSet, ctx.member));
