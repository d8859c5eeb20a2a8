import { findGroupSet, SET_OF_OTHER_UNIT, unitMutation } from '../../../trpc/scopes/index.ts';
import { updateGroupSet } from './operations.ts';
import { groupSetById } from './rows.ts';
import { groupSetOut, updateGroupSetInput } from './schemas.ts';

export const updateGroupSetProcedure = unitMutation(updateGroupSetInput, {
  action: 'update',
  refused: 'Not authorised to update group set for this unit',
})
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/units/{unit_id}/group_sets/{id}',
      tags: ['Group sets and groups'],
      summary: 'Change or lock a group set (unit Convenor, Admin)',
      description:
        'All fields optional (the web client sends only those that changed). A locked set lets students neither create nor join groups. Keeping groups in one class is refused (400) while an active member of one of its groups is outside that group\'s tutorial. A set of another unit: 404 "Unable to locate group set for unit".',
    },
  })
  .output(groupSetOut)
  .mutation(async ({ ctx, input }) => {
    const set = await findGroupSet(ctx.em, ctx.unit.id, input.id, SET_OF_OTHER_UNIT);
    await updateGroupSet(ctx.em, set, input.group_set);
    return (await groupSetById(ctx.em, set.id))!;
  });
