import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { updateAlignmentAs } from '../../../operations/units/learning_alignments/alignments-for-caller.ts';
import { NOT_IN_UNIT, TAG } from './messages.ts';
import { alignmentOut, updateAlignmentInput } from './schemas.ts';

export const updateAlignmentProcedure = unitMutation(updateAlignmentInput, { action: 'get_unit', refused: NOT_IN_UNIT })
  .meta(
    route('PUT', '/api/units/{unit_id}/learning_alignments/{id}', TAG, "Change an alignment's rating or description", {
      description:
        "Only the fields sent change (`rating` 1 to 5). A student's self-assessment: the student or staff of the unit; the unit's own " +
        'alignment: its Convenor or an Admin.',
    }),
  )
  .output(alignmentOut)
  .mutation(({ ctx, input }) => updateAlignmentAs(ctx.em, ctx, input.id, input));
