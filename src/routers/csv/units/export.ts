import { fileResult } from '../../../lib/files.ts';
import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { studentsCsv } from '../../../operations/csv/units/students-csv.ts';
import { downloadStudentsCsv, unitCsvInput } from './schemas.ts';

export const downloadStudents = unitQuery(unitCsvInput, downloadStudentsCsv)
  .meta(
    route('GET', '/api/csv/units/{id}', 'Units', "The unit's enrolled students as CSV (staff of the unit, or Admin)", {
      description:
        '`<CODE>-Students.csv`: `unit_code, campus, username, student_id, preferred_name, first_name, last_name, email`, ' +
        "then the tutorial abbreviation per stream (or one `tutorial` column), then `engagements` (the student's check-ins). The format the enrol upload reads. Students without a campus are included.",
      rest: { file: true },
    }),
  )
  .output(fileResult().meta({ contentMediaType: 'text/csv' }))
  .query(({ ctx }) => studentsCsv(ctx.em, ctx.unit));
