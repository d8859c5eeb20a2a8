import { z } from 'zod';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { alignmentToChange } from './authorize-change.ts';
import { NOT_IN_UNIT, TAG } from './messages.ts';
import { deleteAlignment } from '../../../operations/units/learning_alignments/change-alignments.ts';
import { alignmentIdInput } from './schemas.ts';

export const deleteAlignmentProcedure = unitMutation(alignmentIdInput, { action: 'get_unit', refused: NOT_IN_UNIT })
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/units/{unit_id}/learning_alignments/{id}',
      tags: [TAG],
      summary: 'Remove an alignment',
      description: "A student's self-assessment: the student or staff of the unit; the unit's own alignment: its Convenor or an Admin.",
    },
    rest: { status: 204 },
  })
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    await deleteAlignment(ctx.em, (await alignmentToChange(ctx.em, ctx, input.id)).id);
    return true as const;
  });
