import { readFile } from 'node:fs/promises';
import { canInUnit } from '../../../policy/index.ts';
import { CsvError, decodeCsv, looksBinary } from '../../../domain/csv.ts';
import { badRequest, forbidden } from '../../../trpc/errors.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { csvImportOut } from '../outcomes/schemas.ts';
import { NOT_CSV } from '../outcomes/upload-csv.ts';
import { importAlignmentsCsv } from '../../../operations/units/learning_alignments/alignments-csv.ts';
import { NOT_IN_UNIT, NOT_YOUR_PROJECT, TAG, cannotUploadCsv } from './messages.ts';
import { authorizeOnProject, projectOfUnit } from '../../../operations/units/learning_alignments/change-alignments.ts';
import { uploadAlignmentsInput } from './schemas.ts';

export const uploadAlignmentsCsv = unitMutation(uploadAlignmentsInput, { action: 'get_unit', refused: NOT_IN_UNIT })
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/units/{unit_id}/learning_alignments/csv',
      tags: [TAG],
      summary: "Add or change the unit's alignments, or a student's, from a CSV file",
      description:
        'Multipart field `file`: columns `unit_code, learning_outcome, task_abbr, rating` and optionally `description` (any case and order). ' +
        'Each row sets the rating (1 to 5) and description of the alignment of that outcome and task definition, adding it if there is none. ' +
        "Without `project_id`: the unit's own alignments, by its Convenor or an Admin. With it: the student's self-assessments of tasks they have, by the student or staff of the unit. " +
        'Rows of another unit are ignored; a row naming an unknown outcome or task, a task the student does not have, or a bad rating is an error and changes nothing. ' +
        'Answers `{success, errors, ignored}`, each item `{row, message}`.',
    },
    rest: { upload: {} },
  })
  .output(csvImportOut)
  .mutation(async ({ ctx, input }) => {
    const { unit } = ctx;
    let projectId: number | null = null;
    if (input.project_id === undefined) {
      if (!canInUnit(ctx.unitRole, 'upload_csv')) throw forbidden(cannotUploadCsv(unit.code));
    } else {
      const project = await projectOfUnit(ctx.em, unit.id, input.project_id);
      await authorizeOnProject(ctx.em, ctx.user, unit, project.user_id, 'make_submission', NOT_YOUR_PROJECT);
      projectId = project.id;
    }
    const bytes = await readFile(input.file.path);
    if (looksBinary(bytes)) throw forbidden(NOT_CSV);
    try {
      return await importAlignmentsCsv(ctx.em, unit, projectId, decodeCsv(bytes));
    } catch (error) {
      if (error instanceof CsvError) throw badRequest(error.message);
      throw error;
    }
  });
