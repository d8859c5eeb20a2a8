import { z } from 'zod';
import { deleteEngagement as remove } from '../../../operations/projects/engagements/delete-engagement.ts';
import { canInUnit, roleInUnit } from '../../../policy/index.ts';
import { route } from '../../../trpc/route.ts';
import { projectMutation } from '../../../trpc/scopes/index.ts';
import { engagementIdInput } from './schemas.ts';

export const deleteEngagement = projectMutation(engagementIdInput, {
  action: 'write_engagements',
  orUnit: 'write_engagements',
  refused: 'Only staff of the unit may delete engagements',
  field: 'project_id',
})
  .meta(
    route('DELETE', '/api/projects/{project_id}/engagements/{id}', 'Check-ins', 'Delete a check-in', {
      description: "Its author within an hour of recording it; the unit's convenor (or an Admin) within a week; else 403. See docs/check-ins.md.",
      rest: { status: 204 },
    }),
  )
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    // A second subject: whoever convenes the unit may delete another's engagement (within a week).
    const mayDeleteOthers = canInUnit(await roleInUnit(ctx.em, ctx.user, ctx.unit.id), 'delete_others_engagements');
    await remove(ctx.em, { storage: ctx.storage, afterCommit: ctx.afterCommit, now: ctx.clock.now() }, ctx.project.id, input.id, {
      id: ctx.user.id,
      mayDeleteOthers,
    });
    return true as const;
  });
