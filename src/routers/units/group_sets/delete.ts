import { z } from 'zod';
import { findGroupSet, SET_OF_OTHER_UNIT, unitMutation } from '../../../trpc/scopes/index.ts';
import { deleteGroupSet } from './operations.ts';
import { groupSetPathInput } from './schemas.ts';

export const deleteGroupSetProcedure = unitMutation(groupSetPathInput, {
  action: 'update',
  refused: 'Not authorised to delete group set for this unit',
})
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/units/{unit_id}/group_sets/{id}',
      tags: ['Group sets and groups'],
      summary: 'Delete a group set with its groups (unit Convenor, Admin)',
      description:
        'Its groups and their memberships go with it; task definitions of the set become individual tasks. Refused (400) while one of its groups has a submission.',
    },
    rest: { status: 204 },
  })
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    await deleteGroupSet(ctx.em, await findGroupSet(ctx.em, ctx.unit.id, input.id, SET_OF_OTHER_UNIT));
    return true as const;
  });
