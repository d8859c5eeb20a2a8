import { unitMutation } from '../../../trpc/scopes/index.ts';
import { alignmentToChange } from './authorize-change.ts';
import { NOT_IN_UNIT, TAG } from './messages.ts';
import { updateAlignment } from '../../../operations/units/learning_alignments/change-alignments.ts';
import { alignmentOut, toAlignment, updateAlignmentInput } from './schemas.ts';

export const updateAlignmentProcedure = unitMutation(updateAlignmentInput, { action: 'get_unit', refused: NOT_IN_UNIT })
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/units/{unit_id}/learning_alignments/{id}',
      tags: [TAG],
      summary: "Change an alignment's rating or description",
      description:
        "Only the fields sent change (`rating` 1 to 5). A student's self-assessment: the student or staff of the unit; the unit's own alignment: its Convenor or an Admin.",
    },
  })
  .output(alignmentOut)
  .mutation(async ({ ctx, input }) => {
    const alignment = await alignmentToChange(ctx.em, ctx, input.id);
    return toAlignment(await updateAlignment(ctx.em, alignment, { rating: input.rating, description: input.description }));
  });
