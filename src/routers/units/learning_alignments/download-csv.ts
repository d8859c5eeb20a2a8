import { fileResult } from '../../../lib/files.ts';
import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { alignmentsCsvAs } from '../../../operations/units/learning_alignments/alignments-for-caller.ts';
import { NOT_IN_UNIT, TAG } from './messages.ts';
import { alignmentsCsvInput } from './schemas.ts';

export const downloadAlignmentsCsv = unitQuery(alignmentsCsvInput, { action: 'get_unit', refused: NOT_IN_UNIT })
  .meta(
    route('GET', '/api/units/{unit_id}/learning_alignments/csv', TAG, "Download the unit's alignments, or a student's, as CSV", {
      description:
        "The unit's own alignments as `<CODE>-Alignment.csv`, or with `project_id` that student's as " +
        '`<CODE>-<username>-Task-Alignment.csv`. See docs/api/units.md.',
      rest: { file: true },
    }),
  )
  .output(fileResult().meta({ contentMediaType: 'text/csv' }))
  .query(({ ctx, input }) => alignmentsCsvAs(ctx.em, ctx, input.project_id));
