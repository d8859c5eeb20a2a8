import { createGroupFor } from '../../../../operations/units/group_sets/groups/create-group.ts';
import { route } from '../../../../trpc/route.ts';
import { groupSetMutation } from '../../../../trpc/scopes/index.ts';
import { createdGroupOut, createGroupInput } from '../schemas.ts';

export const createGroupProcedure = groupSetMutation(createGroupInput, {
  action: 'create_group',
  // The original's wording, "group set" included.
  refused: 'Not authorised to create a group set for this unit',
})
  .meta(
    route(
      'POST',
      '/api/units/{unit_id}/group_sets/{group_set_id}/groups',
      'Group sets and groups',
      'Add a group to a set (unit staff; students when the set lets them create groups)',
      {
        description:
          'Fields flat (as the spec lists them) or wrapped in `group` (as the web client sends them); a student creator joins the new group. ' +
          "The answer carries the group's fields at the top level and under `group`. See docs/api/users.md.",
      },
    ),
  )
  .output(createdGroupOut)
  .mutation(({ ctx, input }) => createGroupFor(ctx.em, { userId: ctx.user.id, unitId: ctx.unit.id, unitRole: ctx.unitRole }, ctx.groupSet, input));
