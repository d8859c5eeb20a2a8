import { z } from 'zod';
import { deletionRefusalForStudent } from '../../../../domain/groups.ts';
import { forbidden } from '../../../../trpc/errors.ts';
import { deleteGroup, memberUserIds } from '../operations.ts';
import { canInGroup } from '../../../../policy/index.ts';
import { groupMutation, setFlags } from '../../../../trpc/scopes/index.ts';
import { groupPathInput } from '../schemas.ts';

export const deleteGroupProcedure = groupMutation(groupPathInput, {
  action: 'manage_group',
  // The original's wording, "group set" included.
  refused: 'Not authorised to delete group set for this unit',
})
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/units/{unit_id}/group_sets/{group_set_id}/groups/{group_id}',
      tags: ['Group sets and groups'],
      summary: 'Delete a group (unit staff; a student member alone in it, when the set lets students manage groups)',
      description: 'Its memberships go with it. Refused (400) while it has a submission. Answers `true`.',
    },
    rest: { status: 200 },
  })
  .output(z.literal(true))
  .mutation(async ({ ctx }) => {
    // Staff delete any group; a student member only one they are alone in.
    if (!canInGroup(ctx.groupRole, 'delete_any_group', ctx.group, setFlags(ctx.groupSet))) {
      const refusal = deletionRefusalForStudent(await memberUserIds(ctx.em, ctx.group.id), ctx.user.id);
      if (refusal) throw forbidden(refusal);
    }
    await deleteGroup(ctx.em, ctx.group);
    return true as const;
  });
