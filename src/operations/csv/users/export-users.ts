// Every user as CSV (GET /api/csv/users), in the format the upload reads.
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { writeCsv } from '../../../domain/csv.ts';
import { csvDownload, type FileResult } from '../../../lib/files.ts';
import { USER_CSV_COLUMNS } from './import-users.ts';

/** `users.csv`, ordered by id, without passwords. */
export async function exportUsersCsv(em: Em): Promise<FileResult> {
  const users = await db(em)
    .selectFrom('users')
    .select(['email', 'first_name', 'last_name', 'username', 'nickname', 'system_role', 'student_id'])
    .orderBy('id')
    .execute();
  const rows = users.map((u) => [u.email, u.first_name, u.last_name, u.username, u.nickname, u.system_role, u.student_id]);
  return csvDownload('users.csv', writeCsv(USER_CSV_COLUMNS, rows), 'text/csv');
}
