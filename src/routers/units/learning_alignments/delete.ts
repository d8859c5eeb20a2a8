import { z } from 'zod';
import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { deleteAlignmentAs } from '../../../operations/units/learning_alignments/alignments-for-caller.ts';
import { NOT_IN_UNIT, TAG } from './messages.ts';
import { alignmentIdInput } from './schemas.ts';

export const deleteAlignmentProcedure = unitMutation(alignmentIdInput, { action: 'get_unit', refused: NOT_IN_UNIT })
  .meta(
    route('DELETE', '/api/units/{unit_id}/learning_alignments/{id}', TAG, 'Remove an alignment', {
      description: "A student's self-assessment: the student or staff of the unit; the unit's own alignment: its Convenor or an Admin.",
      rest: { status: 204 },
    }),
  )
  .output(z.literal(true))
  .mutation(({ ctx, input }) => deleteAlignmentAs(ctx.em, ctx, input.id));
