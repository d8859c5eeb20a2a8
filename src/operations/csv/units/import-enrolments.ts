// Enrolling students from rows of the unit CSV (beyond-spec.md §2.4): users are found or created
// (without a password), enrolled, and put in one tutorial per stream. A fixed number of batched
// statements whatever the number of rows. The CSV upload and the demo seed call it.
import { User, type IUser } from '../../../../schema/index.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { enrolProjects } from '../../projects/enrol-projects.ts';
import type { CsvRow, ImportResult } from '../read-csv.ts';
import { ROLE } from '../../../policy/index.ts';

export interface EnrolUnit {
  id: number;
  code: string;
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

const titleCase = (s: string) => s.toLowerCase().replace(/(^|[\s'-])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase());

/** Does a row's unit code name this unit (its code, or one part of a code like `SIT101/SIT701`)? */
export function unitCodeMatches(given: string, code: string): boolean {
  const g = given.trim().toLowerCase();
  const c = code.toLowerCase();
  return g === c || c.split('/').some((part) => part.trim() === g) || g.split('/').some((part) => part.trim() === c);
}

interface Planned {
  row: CsvRow;
  username: string;
  campusId: number | null;
  user?: IUser;
}

export async function importEnrolments(em: Em, unit: EnrolUnit, rows: CsvRow[]): Promise<ImportResult> {
  const result: ImportResult = { success: [], errors: [], ignored: [] };
  const k = db(em);
  const campuses = await k.selectFrom('campuses').select(['id', 'name', 'abbreviation']).execute();
  const streams = await k.selectFrom('tutorial_streams').select(['id', 'abbreviation']).where('unit_id', '=', unit.id).execute();
  const tutorials = await k.selectFrom('tutorials').select(['id', 'abbreviation', 'tutorial_stream_id', 'campus_id']).where('unit_id', '=', unit.id).execute();
  // One column per stream (by abbreviation, lower-cased), or a single `tutorial` column.
  const columns = streams.length
    ? streams.map((s) => ({ key: s.abbreviation.toLowerCase(), streamId: s.id as number | null }))
    : [{ key: 'tutorial', streamId: null }];

  const planned: Planned[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const username = (row.username ?? '').toLowerCase();
    if (!unitCodeMatches(row.unit_code ?? '', unit.code)) {
      result.ignored.push({ row, message: `Invalid unit code. ${row.unit_code ?? ''} does not match ${unit.code}` });
    } else if (!username) {
      result.errors.push({ row, message: 'Missing username' });
    } else if (seen.has(username)) {
      result.ignored.push({ row, message: 'Skipping duplicate role' });
    } else if (!EMAIL.test(row.email ?? '')) {
      seen.add(username);
      result.errors.push({ row, message: `Invalid email address (${row.email ?? ''})` });
    } else {
      seen.add(username);
      const campusText = (row.campus ?? '').toLowerCase();
      const campus = campusText ? campuses.find((c) => c.abbreviation.toLowerCase() === campusText || c.name.toLowerCase() === campusText) : undefined;
      if (campusText && !campus) result.errors.push({ row, message: `Unable to find campus (${row.campus})` });
      else planned.push({ row, username, campusId: campus?.id ?? null });
    }
  }
  if (planned.length === 0) return result;

  // Users: found by username, else created as students without a password.
  const existing = await em.find(User, { username: { $in: planned.map((p) => p.username) } });
  const byName = new Map(existing.map((u) => [u.username, u]));
  const emails = planned.filter((p) => !byName.has(p.username)).map((p) => p.row.email.toLowerCase());
  const studentIds = planned.map((p) => p.row.student_id).filter((s): s is string => !!s);
  const taken = await k
    .selectFrom('users')
    .select(['username', 'email', 'student_id'])
    .where((eb) => eb.or([eb('email', 'in', emails.length ? emails : ['']), eb('student_id', 'in', studentIds.length ? studentIds : [''])]))
    .execute();
  const ready: Planned[] = [];
  // Earlier rows of this file claim their email and student id too.
  const claimed = taken.map((t) => ({ username: t.username, email: t.email, student_id: t.student_id }));
  for (const p of planned) {
    const email = p.row.email.toLowerCase();
    const studentId = p.row.student_id || null;
    const isNew = !byName.has(p.username);
    const clash = claimed.find((t) => t.username !== p.username && ((isNew && t.email === email) || (studentId && t.student_id === studentId)));
    if (clash) {
      result.errors.push({
        row: p.row,
        message: isNew && clash.email === email ? `Email ${email} belongs to another user` : `Student id ${studentId} belongs to another user`,
      });
      continue;
    }
    claimed.push({ username: p.username, email, student_id: studentId });
    const found = byName.get(p.username);
    if (found) {
      if (studentId && found.studentId !== studentId) found.studentId = studentId;
      p.user = found;
    } else {
      const first = titleCase(p.row.first_name || p.username);
      p.user = em.create(User, {
        username: p.username,
        email,
        firstName: first,
        lastName: titleCase(p.row.last_name || ''),
        nickname: first,
        studentId,
        systemRole: ROLE.student,
        passwordHash: null,
      });
    }
    ready.push(p);
  }
  await em.flush();

  const enrolled = await enrolProjects(
    em,
    unit.id,
    ready.map((p) => ({ userId: p.user!.id, campusId: p.campusId })),
    { updateCampus: true },
  );

  // Tutorials: at most one per stream; a new one replaces the project's enrolment in that stream.
  const projectIds = enrolled.map((e) => e.projectId);
  const current = projectIds.length
    ? await k
        .selectFrom('tutorial_enrolments as e')
        .innerJoin('tutorials as t', 't.id', 'e.tutorial_id')
        .select(['e.id', 'e.project_id', 'e.tutorial_id', 't.tutorial_stream_id'])
        .where('e.project_id', 'in', projectIds)
        .execute()
    : [];
  const removals: number[] = [];
  const additions: { project_id: number; tutorial_id: number }[] = [];
  ready.forEach((p, i) => {
    const enrolment = enrolled[i];
    const notes: string[] = [];
    if (enrolment.outcome === 'created') notes.push('Enrolled student.');
    if (enrolment.outcome === 'reenrolled') notes.push('Re-enrolled student.');
    if (enrolment.campusChanged) notes.push('Campus updated.');
    for (const column of columns) {
      const abbr = p.row[column.key];
      if (!abbr) continue;
      const tutorial = tutorials.find((t) => t.abbreviation.toLowerCase() === abbr.toLowerCase());
      let reason: string | undefined;
      if (!tutorial) reason = 'no tutorial has that abbreviation';
      else if (streams.length && tutorial.tutorial_stream_id !== column.streamId) reason = `it is not in stream ${column.key}`;
      else if (tutorial.campus_id !== null && p.campusId !== null && tutorial.campus_id !== p.campusId) reason = 'it is on another campus';
      if (reason) {
        notes.push(`UNABLE TO enroll in ${abbr}: ${reason}.`);
        continue;
      }
      const mine = current.filter((c) => c.project_id === enrolment.projectId && c.tutorial_stream_id === tutorial!.tutorial_stream_id);
      if (mine.some((c) => c.tutorial_id === tutorial!.id)) continue;
      removals.push(...mine.map((c) => c.id));
      additions.push({ project_id: enrolment.projectId, tutorial_id: tutorial!.id });
      notes.push(`Enrolled in ${tutorial!.abbreviation}.`);
    }
    if (notes.length === 0) result.ignored.push({ row: p.row, message: 'No change.' });
    else result.success.push({ row: p.row, message: notes.join(' ') });
  });
  if (removals.length) await k.deleteFrom('tutorial_enrolments').where('id', 'in', removals).execute();
  if (additions.length) {
    await k
      .insertInto('tutorial_enrolments')
      .values(additions.map((a) => ({ ...a, created_at: new Date().toISOString() })) as never)
      .execute();
  }
  return result;
}
