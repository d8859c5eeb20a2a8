import { updateGroupSet } from '../../../operations/units/group_sets/change-group-set.ts';
import { route } from '../../../trpc/route.ts';
import { findGroupSet, SET_OF_OTHER_UNIT, unitMutation } from '../../../trpc/scopes/index.ts';
import { groupSetOut, updateGroupSetInput } from './schemas.ts';

export const updateGroupSetProcedure = unitMutation(updateGroupSetInput, {
  action: 'update',
  refused: 'Not authorised to update group set for this unit',
})
  .meta(
    route('PUT', '/api/units/{unit_id}/group_sets/{id}', 'Group sets and groups', 'Change or lock a group set (unit Convenor, Admin)', {
      description:
        'All fields optional (the web client sends only those that changed). A locked set lets students neither create nor join groups. ' +
        "Keeping groups in one class is refused (400) while an active member of one of its groups is outside that group's tutorial. A set " +
        'of another unit: 404 "Unable to locate group set for unit".',
    }),
  )
  .output(groupSetOut)
  .mutation(async ({ ctx, input }) => updateGroupSet(ctx.em, await findGroupSet(ctx.em, ctx.unit.id, input.id, SET_OF_OTHER_UNIT), input.group_set));
