import { z } from 'zod';
import { engagementRows } from '../../../operations/projects/engagements/engagement-rows.ts';
import { route } from '../../../trpc/route.ts';
import { projectQuery } from '../../../trpc/scopes/index.ts';
import { engagementOut, projectIdInput } from './schemas.ts';

export const listEngagements = projectQuery(projectIdInput, {
  action: 'read_engagements',
  orUnit: 'write_engagements',
  refused: 'Not authorised to see the engagements of this project',
  field: 'project_id',
})
  .meta(
    route('GET', '/api/projects/{project_id}/engagements', 'Check-ins', "The check-ins staff recorded on a student's project, with their replies", {
      description: "The project's student, staff of the unit, or an Admin. Latest first; see docs/check-ins.md.",
    }),
  )
  .output(z.array(engagementOut))
  .query(({ ctx }) => engagementRows(ctx.em, ctx.project.id));
