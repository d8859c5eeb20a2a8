import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { importAlignmentsCsvAs } from '../../../operations/units/learning_alignments/alignments-for-caller.ts';
import { csvImportOut } from '../outcomes/schemas.ts';
import { NOT_IN_UNIT, TAG } from './messages.ts';
import { uploadAlignmentsInput } from './schemas.ts';

export const uploadAlignmentsCsv = unitMutation(uploadAlignmentsInput, { action: 'get_unit', refused: NOT_IN_UNIT })
  .meta(
    route('POST', '/api/units/{unit_id}/learning_alignments/csv', TAG, "Add or change the unit's alignments, or a student's, from a CSV file", {
      description:
        'Multipart field `file`: columns `unit_code, learning_outcome, task_abbr, rating` and optionally `description` (any case and order). ' +
        'Each row sets the rating (1 to 5) and description of the alignment of that outcome and task definition, adding it if there is none. ' +
        "Without `project_id`: the unit's own alignments, by its Convenor or an Admin. With it: the student's self-assessments of tasks they have, by the student or staff of the unit. " +
        'Rows of another unit are ignored; a row naming an unknown outcome or task, a task the student does not have, or a bad rating is an error and changes nothing. ' +
        'Answers `{success, errors, ignored}`, each item `{row, message}`.',
      rest: { upload: {} },
    }),
  )
  .output(csvImportOut)
  .mutation(({ ctx, input }) => importAlignmentsCsvAs(ctx.em, ctx, input.project_id, input.file.path));
