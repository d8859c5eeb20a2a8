import { sql } from 'kysely';
import { db } from '../../../db/kysely.ts';
import { writeCsv } from '../../../domain/csv.ts';
import { csvDownload, fileResult } from '../../../trpc/files.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { unitCsvInput } from './schemas.ts';

export const downloadTutorAssessments = unitQuery(unitCsvInput, {
  field: 'id',
  action: 'download_stats',
  refused: (id) => `Not authorised to download stats of unit ${id}`,
})
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/csv/units/{id}/tutor_assessments',
      tags: ['Units'],
      summary: 'Tasks assessed per tutor as CSV (staff of the unit, or Admin)',
      description:
        "`<CODE>-TutorAssessments.csv`: `Username, Tutor Name, Total Tasks Assessed`, one row per tutor of a tutorial with enrolled students' tasks: the sum of those tasks' assessment counts (a student in two streams' tutorials counts for both tutors, as in the original).",
    },
    rest: { file: true },
  })
  .output(fileResult().meta({ contentMediaType: 'text/csv' }))
  .query(async ({ ctx }) => {
    const { rows } = await sql<{ username: string; first_name: string; last_name: string; total: number }>`
      select u.username, u.first_name, u.last_name, sum(t.times_assessed)::int as total
        from tasks t
        join projects p on p.id = t.project_id
        join tutorial_enrolments e on e.project_id = p.id
        join tutorials tu on tu.id = e.tutorial_id
        join unit_roles r on r.id = tu.tutor_id
        join users u on u.id = r.user_id
       where p.unit_id = ${ctx.unit.id}
       group by u.username, u.first_name, u.last_name
       order by u.username`.execute(db(ctx.em));
    const header = ['Username', 'Tutor Name', 'Total Tasks Assessed'];
    return csvDownload(
      `${ctx.unit.code}-TutorAssessments.csv`,
      writeCsv(
        header,
        rows.map((r) => [r.username, `${r.first_name} ${r.last_name}`, r.total]),
      ),
      'text/csv',
    );
  });
