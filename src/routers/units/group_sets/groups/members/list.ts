import { z } from 'zod';
import { groupQuery } from '../../../../../trpc/scopes/index.ts';
import { listMembers } from './operations.ts';
import { groupInput, memberOut } from './schemas.ts';

export const listGroupMembers = groupQuery(groupInput, { action: 'get_members', refused: 'Not authorised to get groups for this unit' })
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/units/{unit_id}/group_sets/{group_set_id}/groups/{group_id}/members',
      tags: ['Group sets and groups'],
      summary: "A group's members (staff of the unit; a student who is a member)",
      description:
        'The active members whose projects are enrolled, by username: `{id (project id), target_grade, student: {id, email, first_name, last_name, username, nickname}}`. `student` is an object, as the web client reads it (the spec calls it a string). A student who is not in the group is refused (403); an Admin may read (the group table gives admins `get_members`).',
    },
  })
  .output(z.array(memberOut))
  .query(({ ctx }) => listMembers(ctx.em, ctx.group.id));
