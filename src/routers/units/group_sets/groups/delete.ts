import { z } from 'zod';
import { deleteGroupFor } from '../../../../operations/units/group_sets/groups/delete-group.ts';
import { route } from '../../../../trpc/route.ts';
import { groupMutation } from '../../../../trpc/scopes/index.ts';
import { groupPathInput } from '../schemas.ts';

export const deleteGroupProcedure = groupMutation(groupPathInput, {
  action: 'manage_group',
  // The original's wording, "group set" included.
  refused: 'Not authorised to delete group set for this unit',
})
  .meta(
    route(
      'DELETE',
      '/api/units/{unit_id}/group_sets/{group_set_id}/groups/{group_id}',
      'Group sets and groups',
      'Delete a group (unit staff; a student member alone in it, when the set lets students manage groups)',
      { description: 'Its memberships go with it. Refused (400) while it has a submission. Answers `true`.', rest: { status: 200 } },
    ),
  )
  .output(z.literal(true))
  .mutation(({ ctx }) => deleteGroupFor(ctx.em, { userId: ctx.user.id, groupRole: ctx.groupRole }, ctx.group, ctx.groupSet));
