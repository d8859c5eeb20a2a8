import { replyToEngagement } from '../../../operations/projects/engagements/reply-to-engagement.ts';
import { route } from '../../../trpc/route.ts';
import { projectMutation } from '../../../trpc/scopes/index.ts';
import { engagementOut, replyInput } from './schemas.ts';

export const replyToEngagementProcedure = projectMutation(replyInput, {
  action: 'reply_engagements',
  orUnit: 'write_engagements',
  refused: 'Not authorised to reply to the engagements of this project',
  field: 'project_id',
})
  .meta(
    route('POST', '/api/projects/{project_id}/engagements/{id}/comments', 'Check-ins', 'Reply under a check-in', {
      description: "Staff of the unit, an Admin, or the project's student. Answers the check-in with every reply, the new one last.",
    }),
  )
  .output(engagementOut)
  .mutation(({ ctx, input }) => replyToEngagement(ctx.em, ctx.project.id, input.id, ctx.user.id, input.comment, ctx.clock.now()));
