import { canInUnit } from '../../../policy/index.ts';
import { forbidden } from '../../../trpc/errors.ts';
import { csvDownload, fileResult } from '../../../trpc/files.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { alignmentsCsv } from '../../../operations/units/learning_alignments/alignments-csv.ts';
import { NOT_IN_UNIT, NOT_YOUR_PROJECT, TAG, cannotDownloadCsv } from './messages.ts';
import { authorizeOnProject, projectOfUnit } from '../../../operations/units/learning_alignments/change-alignments.ts';
import { alignmentsCsvInput } from './schemas.ts';

export const downloadAlignmentsCsv = unitQuery(alignmentsCsvInput, { action: 'get_unit', refused: NOT_IN_UNIT })
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/units/{unit_id}/learning_alignments/csv',
      tags: [TAG],
      summary: "Download the unit's alignments, or a student's, as CSV",
      description:
        'Columns `unit_code, learning_outcome, task_abbr, rating, description` (outcome and task definition by abbreviation), in the order they were made. ' +
        "Without `project_id`: the unit's own alignments as `<CODE>-Alignment.csv`, for unit staff and Admins. With it: that student's self-assessments as `<CODE>-<username>-Task-Alignment.csv`, for the student or staff of the unit.",
    },
    rest: { file: true },
  })
  .output(fileResult().meta({ contentMediaType: 'text/csv' }))
  .query(async ({ ctx, input }) => {
    const { unit } = ctx;
    if (input.project_id === undefined) {
      if (!canInUnit(ctx.unitRole, 'download_unit_csv')) throw forbidden(cannotDownloadCsv(unit.code));
      return csvDownload(`${unit.code}-Alignment.csv`, await alignmentsCsv(ctx.em, unit, null));
    }
    const project = await projectOfUnit(ctx.em, unit.id, input.project_id);
    await authorizeOnProject(ctx.em, ctx.user, unit, project.user_id, 'get', NOT_YOUR_PROJECT);
    return csvDownload(`${unit.code}-${project.username}-Task-Alignment.csv`, await alignmentsCsv(ctx.em, unit, project.id));
  });
