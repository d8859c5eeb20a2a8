import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { createAlignmentAs } from '../../../operations/units/learning_alignments/alignments-for-caller.ts';
import { NOT_IN_UNIT, TAG } from './messages.ts';
import { alignmentOut, createAlignmentInput } from './schemas.ts';

export const createAlignmentProcedure = unitMutation(createAlignmentInput, { action: 'get_unit', refused: NOT_IN_UNIT })
  .meta(
    route('POST', '/api/units/{unit_id}/learning_alignments', TAG, 'Align a task definition with a learning outcome, for the unit or as a student', {
      description:
        "With `project_id` (the spec's form) or `task_id` (the web client's), a student's self-assessment of that task, made by the student or staff of the unit; " +
        "the task is made if the student has not touched it yet. Without either, the unit's own alignment, made by the unit's Convenor or an Admin. " +
        "The outcome and the definition must be the unit's (404); `rating` runs 1 to 5; a pair is aligned once for the unit and once per task (400).",
    }),
  )
  .output(alignmentOut)
  .mutation(({ ctx, input }) => createAlignmentAs(ctx.em, ctx, input, ctx.clock.now()));
