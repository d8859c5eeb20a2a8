import { z } from 'zod';
import { groupsOfSet } from '../../../../operations/units/group_sets/groups/read-groups.ts';
import { route } from '../../../../trpc/route.ts';
import { groupSetQuery } from '../../../../trpc/scopes/index.ts';
import { groupOut, groupsOfSetInput } from '../schemas.ts';

export const listGroups = groupSetQuery(groupsOfSetInput, {
  action: 'get_groups',
  refused: 'Not authorised to get groups for this unit',
  field: 'id',
})
  .meta(
    route(
      'GET',
      '/api/units/{unit_id}/group_sets/{id}/groups',
      'Group sets and groups',
      "A group set's groups with their member counts (the unit's staff and students)",
      {
        description: "`student_count` counts active memberships. An Admin who is not on the unit's staff is refused (403), as in the original.",
      },
    ),
  )
  .output(z.array(groupOut))
  .query(({ ctx }) => groupsOfSet(ctx.em, ctx.groupSet.id));
