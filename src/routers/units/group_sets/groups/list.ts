import { z } from 'zod';
import { groupSetQuery } from '../../../../trpc/scopes/index.ts';
import { groupsOfSet } from '../rows.ts';
import { groupOut, groupsOfSetInput } from '../schemas.ts';

export const listGroups = groupSetQuery(groupsOfSetInput, {
  action: 'get_groups',
  refused: 'Not authorised to get groups for this unit',
  field: 'id',
})
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/units/{unit_id}/group_sets/{id}/groups',
      tags: ['Group sets and groups'],
      summary: "A group set's groups with their member counts (the unit's staff and students)",
      description: "`student_count` counts active memberships. An Admin who is not on the unit's staff is refused (403), as in the original.",
    },
  })
  .output(z.array(groupOut))
  .query(({ ctx }) => groupsOfSet(ctx.em, ctx.groupSet.id));
