import { z } from 'zod';
import { listMembers } from '../../../../../operations/units/group_sets/groups/members/list-members.ts';
import { route } from '../../../../../trpc/route.ts';
import { groupQuery } from '../../../../../trpc/scopes/index.ts';
import { groupInput, memberOut } from './schemas.ts';

export const listGroupMembers = groupQuery(groupInput, { action: 'get_members', refused: 'Not authorised to get groups for this unit' })
  .meta(
    route(
      'GET',
      '/api/units/{unit_id}/group_sets/{group_set_id}/groups/{group_id}/members',
      'Group sets and groups',
      "A group's members (staff of the unit; a student who is a member)",
      {
        description:
          'The active members whose projects are enrolled, by username; `student` is an object, as the web client reads it (the spec calls it a string). ' +
          'A student who is not in the group is refused (403). See docs/api/users.md.',
      },
    ),
  )
  .output(z.array(memberOut))
  .query(({ ctx }) => listMembers(ctx.em, ctx.group.id));
