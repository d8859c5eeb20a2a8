import { unitMutation } from '../../../trpc/scopes/index.ts';
import { createGroupSet } from './operations.ts';
import { groupSetById } from './rows.ts';
import { createGroupSetInput, groupSetOut } from './schemas.ts';

export const createGroupSetProcedure = unitMutation(createGroupSetInput, {
  action: 'update',
  refused: 'Not authorised to create a group set for this unit',
})
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/units/{unit_id}/group_sets',
      tags: ['Group sets and groups'],
      summary: 'Add a group set to a unit (unit Convenor, Admin)',
      description:
        'Students may create groups and manage their memberships unless told otherwise; groups are not kept in one tutorial by default; no capacity means no limit. The name is unique in the unit and a capacity is at least 2 (400). `locked` is taken too (the web client sends it).',
    },
  })
  .output(groupSetOut)
  .mutation(async ({ ctx, input }) => {
    const set = await createGroupSet(ctx.em, ctx.unit.id, input.group_set);
    return (await groupSetById(ctx.em, set.id))!;
  });
