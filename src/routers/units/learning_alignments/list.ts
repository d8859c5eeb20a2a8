import { unitQuery } from '../../../trpc/scopes/index.ts';
import { NOT_IN_UNIT, NOT_YOUR_PROJECT, TAG } from './messages.ts';
import { authorizeOnProject, projectAlignments, projectOfUnit } from '../../../operations/units/learning_alignments/change-alignments.ts';
import { alignmentOut, listAlignmentsInput, toAlignment } from './schemas.ts';

export const listAlignments = unitQuery(listAlignmentsInput, { action: 'get_unit', refused: NOT_IN_UNIT })
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/units/{unit_id}/learning_alignments',
      tags: [TAG],
      summary: "A project's alignments of its tasks",
      description:
        "`project_id` (required, as the spec marks it; 400 without): that student's self-assessments (each with `task_id`), for the student or staff of the unit. The unit's own alignments are in `GET /api/units/{id}` (`task_outcome_alignments`) and the CSV.",
    },
  })
  .output(alignmentOut.array())
  .query(async ({ ctx, input }) => {
    const project = await projectOfUnit(ctx.em, ctx.unit.id, input.project_id);
    await authorizeOnProject(ctx.em, ctx.user, ctx.unit, project.user_id, 'get', NOT_YOUR_PROJECT);
    return (await projectAlignments(ctx.em, project.id)).map(toAlignment);
  });
