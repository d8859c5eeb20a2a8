import { unitQuery } from '../../../trpc/scoped.ts';
import { NOT_IN_UNIT, NOT_YOUR_PROJECT, TAG } from './messages.ts';
import { authorizeOnProject, projectAlignments, projectOfUnit, unitAlignments } from './operations.ts';
import { alignmentOut, listAlignmentsInput, toAlignment } from './schemas.ts';

export const listAlignments = unitQuery(listAlignmentsInput, { action: 'get_unit', refused: NOT_IN_UNIT })
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/units/{unit_id}/learning_alignments',
      tags: [TAG],
      summary: "A project's alignments of its tasks, or the unit's own alignments",
      description:
        "With `project_id`: that student's self-assessments (each with `task_id`), for the student or staff of the unit. Without it (the spec lists it as required; the original answers this way): the unit's own alignments, for anyone in the unit.",
    },
  })
  .output(alignmentOut.array())
  .query(async ({ ctx, input }) => {
    if (input.project_id === undefined) return (await unitAlignments(ctx.em, ctx.unit.id)).map(toAlignment);
    const project = await projectOfUnit(ctx.em, ctx.unit.id, input.project_id);
    await authorizeOnProject(ctx.em, ctx.user, ctx.unit, project.user_id, 'get', NOT_YOUR_PROJECT);
    return (await projectAlignments(ctx.em, project.id)).map(toAlignment);
  });
