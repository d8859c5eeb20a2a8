import { z } from 'zod';
import { deleteGroupSet } from '../../../operations/units/group_sets/change-group-set.ts';
import { route } from '../../../trpc/route.ts';
import { findGroupSet, SET_OF_OTHER_UNIT, unitMutation } from '../../../trpc/scopes/index.ts';
import { groupSetPathInput } from './schemas.ts';

export const deleteGroupSetProcedure = unitMutation(groupSetPathInput, {
  action: 'update',
  refused: 'Not authorised to delete group set for this unit',
})
  .meta(
    route('DELETE', '/api/units/{unit_id}/group_sets/{id}', 'Group sets and groups', 'Delete a group set with its groups (unit Convenor, Admin)', {
      description:
        'Its groups and their memberships go with it; task definitions of the set become individual tasks. Refused (400) while one of its ' +
        'groups has a submission.',
      rest: { status: 204 },
    }),
  )
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => deleteGroupSet(ctx.em, await findGroupSet(ctx.em, ctx.unit.id, input.id, SET_OF_OTHER_UNIT)));
