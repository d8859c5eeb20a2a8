import { sql } from 'kysely';
import type { IUnit } from '../../../../schema/index.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { writeCsv } from '../../../domain/csv.ts';
import { csvDownload, type FileResult } from '../../../lib/files.ts';

/**
 * `<CODE>-TutorAssessments.csv`: per tutor of a tutorial with enrolled students' tasks, the sum of
 * those tasks' assessment counts (a student in two streams' tutorials counts for both tutors, as in
 * the original).
 */
export async function tutorAssessmentsCsv(em: Em, unit: Pick<IUnit, 'id' | 'code'>): Promise<FileResult> {
  const { rows } = await sql<{ username: string; first_name: string; last_name: string; total: number }>`
    select u.username, u.first_name, u.last_name, sum(t.times_assessed)::int as total
      from tasks t
      join projects p on p.id = t.project_id
      join tutorial_enrolments e on e.project_id = p.id
      join tutorials tu on tu.id = e.tutorial_id
      join unit_roles r on r.id = tu.tutor_id
      join users u on u.id = r.user_id
     where p.unit_id = ${unit.id}
     group by u.username, u.first_name, u.last_name
     order by u.username`.execute(db(em));
  const header = ['Username', 'Tutor Name', 'Total Tasks Assessed'];
  const csv = writeCsv(
    header,
    rows.map((r) => [r.username, `${r.first_name} ${r.last_name}`, r.total]),
  );
  return csvDownload(`${unit.code}-TutorAssessments.csv`, csv, 'text/csv');
}
