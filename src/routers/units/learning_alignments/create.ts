import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { createAlignmentAs } from '../../../operations/units/learning_alignments/alignments-for-caller.ts';
import { NOT_IN_UNIT, TAG } from './messages.ts';
import { alignmentOut, createAlignmentInput } from './schemas.ts';

export const createAlignmentProcedure = unitMutation(createAlignmentInput, { action: 'get_unit', refused: NOT_IN_UNIT })
  .meta(
    route('POST', '/api/units/{unit_id}/learning_alignments', TAG, 'Align a task definition with a learning outcome, for the unit or as a student', {
      description:
        "With `project_id` or `task_id`, a student's self-assessment (the student or staff of the unit); without, the unit's own alignment " +
        '(its Convenor or an Admin). See docs/api/units.md.',
    }),
  )
  .output(alignmentOut)
  .mutation(({ ctx, input }) => createAlignmentAs(ctx.em, ctx, input, ctx.clock.now()));
