import { gradesCsv } from '../../operations/units/grades-csv.ts';
import { route } from '../../trpc/route.ts';
import { csvDownload, fileResult } from '../../lib/files.ts';
import { unitQuery } from '../../trpc/scopes/index.ts';
import { unitIdInput } from './schemas.ts';

export const downloadGrades = unitQuery(unitIdInput, {
  field: 'id',
  action: 'download_grades',
  refused: 'Not authorised to download grades for this unit',
})
  .meta(
    route('GET', '/api/units/{id}/grades', 'Units', "Download the unit's grades as CSV", {
      description:
        'Columns `unit_code, username, student_id, grade, rationale`: enrolled students graded above 0. The file is named ' +
        '`<CODE>-Students.csv`, as the original names it. Unit staff and admins.',
      rest: { file: true },
    }),
  )
  .output(fileResult().meta({ contentMediaType: 'application/octet-stream' }))
  .query(async ({ ctx }) => csvDownload(`${ctx.unit.code}-Students.csv`, await gradesCsv(ctx.em, ctx.unit), 'application/octet-stream'));
