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
        "Multipart `file`: each row sets the rating and description of an outcome's alignment with a task definition, for the unit or " +
        '(with `project_id`) the student. Answers `{success, errors, ignored}`. See docs/api/units.md.',
      rest: { upload: {} },
    }),
  )
  .output(csvImportOut)
  .mutation(({ ctx, input }) => importAlignmentsCsvAs(ctx.em, ctx, input.project_id, input.file.path));
