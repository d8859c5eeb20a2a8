// Creating users from the users CSV (beyond-spec.md §5, behaviour.md §9.3). The original's row
// rules; users it creates have no password (the original gave them all `password`): each gets an
// invitation mail when a mail server is configured, and the result lists them otherwise.
// A fixed number of statements per batch of rows, whatever the file's length.
import type { SystemRole } from '../../../../schema/enums.ts';
import { SYSTEM_ROLES } from '../../../../schema/enums.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { hashPassword } from '../../../lib/passwords.ts';
import { queueMails } from '../../../mail/queue.ts';
import { canAssignRole } from '../../../policy/index.ts';
import type { CsvRow, ImportResult } from '../../../operations/csv/read-csv.ts';

export const USER_CSV_COLUMNS = ['email', 'first_name', 'last_name', 'username', 'nickname', 'role', 'student_id'] as const;
const REQUIRED = ['username', 'email', 'role', 'first_name'] as const;
const EMAIL = /^[^@\s]+@((?:[-a-z0-9]+\.)+[a-z]{2,})$/i;
const BATCH = 1000;
const MIN_PASSWORD = 8;

export interface UserImportResult extends ImportResult {
  /** Users created without a password and not mailed an invitation (no mail server configured). */
  without_password?: string[];
}

const titleCase = (s: string) => s.toLowerCase().replace(/(^|[\s'-])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase());

interface Planned {
  row: CsvRow;
  username: string;
  email: string;
  role: SystemRole;
  studentId: string | null;
}

export async function importUsers(em: Em, caller: { systemRole: SystemRole }, rows: CsvRow[], options: { mail: boolean }): Promise<UserImportResult> {
  const result: UserImportResult = { success: [], errors: [], ignored: [] };
  const planned: Planned[] = [];
  for (const row of rows) {
    // A repeated header line in the data, as the original skips.
    if (/(email)|(username)/.test(Object.values(row)[0] ?? '')) continue;
    const missing = USER_CSV_COLUMNS.filter((c) => !(c in row));
    if (missing.length) {
      result.errors.push({ row, message: `Missing headers: ${missing.join(', ')}` });
      continue;
    }
    const blank = REQUIRED.find((c) => !row[c]);
    if (blank) {
      result.errors.push({ row, message: `The ${blank} cannot be blank or empty` });
      continue;
    }
    if (!EMAIL.test(row.email)) {
      result.errors.push({ row, message: `Invalid email address (${row.email})` });
      continue;
    }
    const role = SYSTEM_ROLES.find((r) => r.toLowerCase() === row.role.toLowerCase());
    if (!role) {
      result.errors.push({ row, message: `Unable to find role ${row.role}` });
      continue;
    }
    if (!canAssignRole(caller.systemRole, null, role)) {
      result.errors.push({ row, message: `Not authorised to create users with role ${role}` });
      continue;
    }
    if (row.password && row.password.length < MIN_PASSWORD) {
      result.errors.push({ row, message: `Password is too short (minimum is ${MIN_PASSWORD} characters)` });
      continue;
    }
    planned.push({ row, username: row.username.toLowerCase(), email: row.email.toLowerCase(), role, studentId: row.student_id || null });
  }
  for (let i = 0; i < planned.length; i += BATCH) await importBatch(em, planned.slice(i, i + BATCH), result, options);
  return result;
}

async function importBatch(em: Em, batch: Planned[], result: UserImportResult, options: { mail: boolean }): Promise<void> {
  const k = db(em);
  const studentIds = batch.map((p) => p.studentId).filter((s): s is string => s !== null);
  // One read for every clash: the usernames (already existed), emails and student ids (another user's).
  const taken = await k
    .selectFrom('users')
    .select(['username', 'email', 'student_id'])
    .where((eb) =>
      eb.or([
        eb(
          'username',
          'in',
          batch.map((p) => p.username),
        ),
        eb(
          'email',
          'in',
          batch.map((p) => p.email),
        ),
        ...(studentIds.length ? [eb('student_id', 'in', studentIds)] : []),
      ]),
    )
    .execute();
  const usernames = new Set(taken.map((t) => t.username));
  const emails = new Map(taken.map((t) => [t.email, t.username]));
  const ids = new Map(taken.filter((t) => t.student_id !== null).map((t) => [t.student_id!, t.username]));
  const creating: Planned[] = [];
  for (const p of batch) {
    if (usernames.has(p.username)) {
      result.ignored.push({ row: p.row, message: `User ${p.username} already existed.` });
    } else if (emails.has(p.email)) {
      result.errors.push({ row: p.row, message: `Email ${p.email} belongs to another user` });
    } else if (p.studentId && ids.has(p.studentId)) {
      result.errors.push({ row: p.row, message: `Student id ${p.studentId} belongs to another user` });
    } else {
      // Later rows of the file see this one as existing, as the original's row-by-row saves did.
      usernames.add(p.username);
      emails.set(p.email, p.username);
      if (p.studentId) ids.set(p.studentId, p.username);
      creating.push(p);
    }
  }
  if (creating.length === 0) return;
  const now = new Date().toISOString();
  const values = await Promise.all(
    creating.map(async (p) => ({
      username: p.username,
      email: p.email,
      first_name: titleCase(p.row.first_name),
      last_name: titleCase(p.row.last_name ?? ''),
      nickname: p.row.nickname || null,
      student_id: p.studentId,
      system_role: p.role,
      password_hash: p.row.password ? await hashPassword(p.row.password) : null,
      created_at: now,
      updated_at: now,
    })),
  );
  const created = await k
    .insertInto('users')
    .values(values as never)
    .returning(['id', 'username', 'password_hash'])
    .execute();
  const noPassword = created.filter((u) => u.password_hash === null);
  if (options.mail)
    await queueMails(
      em,
      noPassword.map((u) => ({ kind: 'invitation' as const, userId: u.id })),
    );
  else if (noPassword.length) result.without_password = [...(result.without_password ?? []), ...noPassword.map((u) => u.username)];
  const pending = new Set(noPassword.map((u) => u.username));
  for (const p of creating) {
    const note = !pending.has(p.username)
      ? ''
      : options.mail
        ? ' An invitation to set a password was e-mailed.'
        : ' No password yet: no mail server is configured, so no invitation was sent.';
    result.success.push({ row: p.row, message: `Added user ${p.username} as ${p.role}.${note}` });
  }
}
