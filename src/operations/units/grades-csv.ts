import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { writeCsv } from '../../domain/csv.ts';

export const GRADES_CSV_COLUMNS = ['unit_code', 'username', 'student_id', 'grade', 'rationale'];

/** Enrolled students with a grade above 0, by username (behaviour.md §9.3). */
export async function gradesCsv(em: Em, unit: { id: number; code: string }): Promise<string> {
  const rows = await db(em)
    .selectFrom('projects as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['u.username', 'u.student_id', 'p.grade', 'p.grade_rationale'])
    .where('p.unit_id', '=', unit.id)
    .where('p.enrolled', '=', true)
    .where('p.grade', '>', 0)
    .orderBy('u.username')
    .execute();
  return writeCsv(
    GRADES_CSV_COLUMNS,
    rows.map((r) => [unit.code, r.username, r.student_id, r.grade, r.grade_rationale]),
  );
}
