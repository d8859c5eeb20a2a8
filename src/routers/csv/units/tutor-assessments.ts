import { fileResult } from '../../../lib/files.ts';
import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { tutorAssessmentsCsv } from '../../../operations/csv/units/tutor-assessments-csv.ts';
import { unitCsvInput } from './schemas.ts';

export const downloadTutorAssessments = unitQuery(unitCsvInput, {
  field: 'id',
  action: 'download_stats',
  refused: (id) => `Not authorised to download stats of unit ${id}`,
})
  .meta(
    route('GET', '/api/csv/units/{id}/tutor_assessments', 'Units', 'Tasks assessed per tutor as CSV (staff of the unit, or Admin)', {
      description:
        "`<CODE>-TutorAssessments.csv`: `Username, Tutor Name, Total Tasks Assessed`, one row per tutor of a tutorial with enrolled students' tasks: " +
        "the sum of those tasks' assessment counts (a student in two streams' tutorials counts for both tutors, as in the original).",
      rest: { file: true },
    }),
  )
  .output(fileResult().meta({ contentMediaType: 'text/csv' }))
  .query(({ ctx }) => tutorAssessmentsCsv(ctx.em, ctx.unit));
