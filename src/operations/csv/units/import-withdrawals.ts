// Withdrawing students listed in a CSV of `unit_code, username`: two reads and one write.
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { withdrawProjects } from '../../projects/enrol-projects.ts';
import type { CsvRow, ImportResult } from '../read-csv.ts';
import { unitCodeMatches, type EnrolUnit } from './import-enrolments.ts';

export async function importWithdrawals(em: Em, unit: EnrolUnit, rows: CsvRow[]): Promise<ImportResult> {
  const result: ImportResult = { success: [], errors: [], ignored: [] };
  const named = rows.filter((row) => {
    if (unitCodeMatches(row.unit_code ?? '', unit.code)) return true;
    result.ignored.push({ row, message: `Invalid unit code. ${row.unit_code ?? ''} does not match ${unit.code}` });
    return false;
  });
  const usernames = [...new Set(named.map((row) => (row.username ?? '').toLowerCase()).filter(Boolean))];
  const found = usernames.length
    ? await db(em)
        .selectFrom('users as u')
        .leftJoin('projects as p', (j) => j.onRef('p.user_id', '=', 'u.id').on('p.unit_id', '=', unit.id))
        .select(['u.username', 'p.id as project_id', 'p.enrolled'])
        .where('u.username', 'in', usernames)
        .execute()
    : [];
  const byName = new Map(found.map((f) => [f.username, f]));
  const withdrawing = new Set<number>();
  for (const row of named) {
    const username = (row.username ?? '').toLowerCase();
    const user = byName.get(username);
    if (!user) result.errors.push({ row, message: `User ${row.username ?? ''} not found` });
    else if (user.project_id === null || !user.enrolled || withdrawing.has(user.project_id)) {
      result.ignored.push({ row, message: `User ${row.username} not enrolled in unit` });
    } else {
      withdrawing.add(user.project_id);
      result.success.push({ row, message: `User ${row.username} withdrawn from unit` });
    }
  }
  await withdrawProjects(em, [...withdrawing]);
  return result;
}
