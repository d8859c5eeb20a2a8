import { createGroupSet } from '../../../operations/units/group_sets/change-group-set.ts';
import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { createGroupSetInput, groupSetOut } from './schemas.ts';

export const createGroupSetProcedure = unitMutation(createGroupSetInput, {
  action: 'update',
  refused: 'Not authorised to create a group set for this unit',
})
  .meta(
    route('POST', '/api/units/{unit_id}/group_sets', 'Group sets and groups', 'Add a group set to a unit (unit Convenor, Admin)', {
      description:
        'Students may create groups and manage their memberships unless told otherwise; groups are not kept in one tutorial by default; no ' +
        'capacity means no limit. The name is unique in the unit and a capacity is at least 2 (400). `locked` is taken too (the web client ' +
        'sends it).',
    }),
  )
  .output(groupSetOut)
  .mutation(({ ctx, input }) => createGroupSet(ctx.em, ctx.unit.id, input.group_set));
