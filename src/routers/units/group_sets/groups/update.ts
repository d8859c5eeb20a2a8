import { updateGroupFor } from '../../../../operations/units/group_sets/groups/update-group.ts';
import { route } from '../../../../trpc/route.ts';
import { groupMutation } from '../../../../trpc/scopes/index.ts';
import { groupOut, updateGroupInput } from '../schemas.ts';

export const updateGroupProcedure = groupMutation(updateGroupInput, {
  action: 'manage_group',
  refused: 'Not authorised to update this group',
})
  .meta(
    route(
      'PUT',
      '/api/units/{unit_id}/group_sets/{group_set_id}/groups/{group_id}',
      'Group sets and groups',
      'Rename, lock, move or resize a group (unit staff; its student members may rename it when the set lets them manage groups)',
      {
        description:
          'All fields optional, flat or wrapped in `group`; locking, moving and resizing are for staff (403). Names are unique in the set ' +
          '(400). See docs/api/users.md.',
      },
    ),
  )
  .output(groupOut)
  .mutation(({ ctx, input }) => updateGroupFor(ctx.em, ctx.groupRole, ctx.group, ctx.groupSet, input));
