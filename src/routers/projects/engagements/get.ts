import { engagementOut as loadEngagement } from '../../../operations/projects/engagements/engagement-rows.ts';
import { route } from '../../../trpc/route.ts';
import { projectQuery } from '../../../trpc/scopes/index.ts';
import { engagementIdInput, engagementOut } from './schemas.ts';

export const getEngagement = projectQuery(engagementIdInput, {
  action: 'read_engagements',
  orUnit: 'write_engagements',
  refused: 'Not authorised to see the engagements of this project',
  field: 'project_id',
})
  .meta(
    route('GET', '/api/projects/{project_id}/engagements/{id}', 'Check-ins', 'One check-in with its replies', {
      description: "As the list: the project's student, staff of the unit, or an Admin.",
    }),
  )
  .output(engagementOut)
  .query(({ ctx, input }) => loadEngagement(ctx.em, ctx.project.id, input.id));
