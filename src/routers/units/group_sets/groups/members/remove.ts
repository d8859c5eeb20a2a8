import { z } from 'zod';
import { leaveRefusal, studentName } from '../../../../../domain/group-members.ts';
import { canInGroup } from '../../../../../policy/index.ts';
import { authedMutation } from '../../../../../trpc/core.ts';
import { forbidden } from '../../../../../trpc/errors.ts';
import { membershipInSet } from '../../operations.ts';
import { setFlags } from '../../scope.ts';
import { leaveGroup } from './operations.ts';
import { removeMemberInput } from './schemas.ts';
import { loadMemberScope } from './scope.ts';

export const removeGroupMember = authedMutation
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/units/{unit_id}/group_sets/{group_set_id}/groups/{group_id}/members/{id}',
      tags: ['Group sets and groups'],
      summary: 'Take a student out of a group (unit staff; a member leaving when the set lets students manage groups)',
      description:
        '`id` is the project id; a project outside the unit is a 404. Each a 403, in the original\'s order: the caller may manage the group ("This group is locked" when the group or its set is locked); the caller may manage the student (a student only themselves); the student is an active member ("<name> is not a member of this group"). The membership is kept, inactive. Answers `true`.',
    },
    rest: { status: 200 },
  })
  .input(removeMemberInput)
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    const scope = await loadMemberScope(ctx.em, ctx.user, { ...input, project_id: input.id }, { enrolledOnly: false });
    const current = await membershipInSet(ctx.em, scope.project.id, scope.groupSet.id);
    const message = leaveRefusal({
      mayManageGroup: canInGroup(scope.groupRole, 'manage_group', scope.group, setFlags(scope.groupSet)),
      groupLocked: scope.group.locked,
      setLocked: scope.groupSet.locked,
      mayManageStudent: scope.mayManageStudent,
      isMember: current?.group_id === scope.group.id,
      name: studentName(scope.project.first_name, scope.project.last_name),
    });
    if (message !== null) throw forbidden(message);
    await leaveGroup(ctx.em, scope.group.id, scope.project.id);
    return true as const;
  });
