import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { listProjectAlignments } from '../../../operations/units/learning_alignments/alignments-for-caller.ts';
import { NOT_IN_UNIT, TAG } from './messages.ts';
import { alignmentOut, listAlignmentsInput } from './schemas.ts';

export const listAlignments = unitQuery(listAlignmentsInput, { action: 'get_unit', refused: NOT_IN_UNIT })
  .meta(
    route('GET', '/api/units/{unit_id}/learning_alignments', TAG, "A project's alignments of its tasks", {
      description:
        "`project_id` (required, as the spec marks it; 400 without): that student's self-assessments (each with `task_id`), for the " +
        'student or staff of the unit. ' +
        "The unit's own alignments are in `GET /api/units/{id}` (`task_outcome_alignments`) and the CSV.",
    }),
  )
  .output(alignmentOut.array())
  .query(({ ctx, input }) => listProjectAlignments(ctx.em, ctx, input.project_id));
