// Students into groups from a CSV of `group_name, username` (behaviour.md §9.3). Each row goes
// through joinGroup, the member operation the REST route uses, as a convenor adding the student:
// a locked group still refuses, a full one does not (convenors and admins may exceed capacity).
// In a set that keeps groups in one class the student is first enrolled in the group's tutorial,
// through the tutorial enrolment operation.
import type { IGroupSet } from '../../../../../../schema/index.ts';
import { db } from '../../../../../db/kysely.ts';
import type { Em } from '../../../../../db/orm.ts';
import type { CsvRow } from '../../../../../domain/csv.ts';
import { forbidden } from '../../../../../lib/errors.ts';
import type { FileResult, UploadedFile } from '../../../../../lib/files.ts';
import { enrolInTutorial } from '../../../tutorials/enrolments/enrol-in-tutorial.ts';
import { inSavepoint, plural, summarise, type RowResults } from '../../../../import-rows.ts';
import { inTutorial } from '../../set-membership.ts';
import { setCsvFile, uploadedRows, type CsvUploadOut } from '../group-csv-files.ts';
import { joinGroup } from '../members/join-group.ts';

export const STUDENT_CSV_COLUMNS = ['group_name', 'username'] as const;

export interface StudentImportCaller {
  /** The group's `can_exceed_capacity` for the caller (src/policy). */
  mayExceedCapacity: boolean;
  /** The unit's `exceed_capacity`: a full tutorial still takes a student moved with their group. */
  mayExceedTutorialCapacity: boolean;
}

/** Who is in which group of the set, as CSV: one row per active member whose project is enrolled, by group then username. */
export async function exportStudentGroupsCsv(em: Em, unit: { code: string }, set: IGroupSet): Promise<FileResult> {
  const rows = await db(em)
    .selectFrom('groups as g')
    .innerJoin('group_memberships as m', 'm.group_id', 'g.id')
    .innerJoin('projects as p', 'p.id', 'm.project_id')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['g.name', 'u.username'])
    .where('g.group_set_id', '=', set.id)
    .where('m.active', '=', true)
    .where('p.enrolled', '=', true)
    .orderBy('g.name')
    .orderBy('u.username')
    .execute();
  return setCsvFile(
    unit,
    set,
    'student-groups',
    STUDENT_CSV_COLUMNS,
    rows.map((r) => [r.name, r.username]),
  );
}

/** Puts students in the set's groups from an uploaded CSV. */
export async function uploadStudentGroupsCsv(
  em: Em,
  unit: { id: number; code: string },
  set: IGroupSet,
  file: UploadedFile,
  caller: StudentImportCaller,
): Promise<CsvUploadOut> {
  return importStudentGroupsCsv(em, unit, set, await uploadedRows(file, STUDENT_CSV_COLUMNS), caller);
}

type Outcome = { kind: 'added' | 'moved' | 'already'; enrolled: boolean };

export async function importStudentGroupsCsv(
  em: Em,
  unit: { id: number; code: string },
  groupSet: IGroupSet,
  rows: CsvRow[],
  caller: StudentImportCaller,
): Promise<CsvUploadOut> {
  const results: RowResults = { success: [], errors: [], ignored: [] };
  const k = db(em);
  // Three reads for the whole file: the set's groups, the users named, and their projects here.
  const groups = await k.selectFrom('groups').select(['id', 'name', 'tutorial_id']).where('group_set_id', '=', groupSet.id).execute();
  const byGroup = new Map(groups.map((g) => [g.name, g]));
  const usernames = [...new Set(rows.map((r) => r.username.toLowerCase()).filter(Boolean))];
  const users = usernames.length
    ? await k
        .selectFrom('users as u')
        .leftJoin('projects as p', (j) => j.onRef('p.user_id', '=', 'u.id').on('p.unit_id', '=', unit.id))
        .select(['u.username', 'p.id as project_id', 'p.enrolled'])
        .where('u.username', 'in', usernames)
        .execute()
    : [];
  const byUser = new Map(users.map((u) => [u.username, u]));
  const counts = { added: 0, moved: 0, enrolled: 0 };

  for (const row of rows) {
    const username = row.username.toLowerCase();
    const group = byGroup.get(row.group_name);
    if (username === '') {
      results.ignored.push({ row, message: 'Skipping row with missing username' });
      continue;
    }
    if (!group) {
      results.errors.push({ row, message: `Unable to find group ${row.group_name} in ${groupSet.name}` });
      continue;
    }
    const user = byUser.get(username);
    if (!user) {
      results.errors.push({ row, message: `Unable to find user ${username}` });
      continue;
    }
    if (user.project_id === null || !user.enrolled) {
      results.errors.push({ row, message: `Student ${username} is not enrolled in ${unit.code}` });
      continue;
    }
    const projectId = user.project_id;
    const applied = await inSavepoint(em, async (tx): Promise<Outcome> => {
      let enrolled = false;
      if (groupSet.keepGroupsInSameClass && !(await inTutorial(tx, projectId, group.tutorial_id))) {
        await enrolInTutorial(tx, { projectId, tutorialId: group.tutorial_id, mayExceedCapacity: caller.mayExceedTutorialCapacity });
        enrolled = true;
      }
      const outcome = await joinGroup(tx, group.id, projectId, { mayJoin: true, mayManageStudent: true, mayExceedCapacity: caller.mayExceedCapacity });
      if (outcome.ok) return { kind: outcome.moved ? 'moved' : 'added', enrolled };
      if (outcome.alreadyMember) return { kind: 'already', enrolled };
      // Undoes the tutorial enrolment made for this row.
      throw forbidden(outcome.message);
    });
    if (!applied.ok) {
      results.errors.push({ row, message: `${username}: ${applied.message}` });
      continue;
    }
    const { kind, enrolled } = applied.value;
    if (enrolled) counts.enrolled += 1;
    const tutorialNote = enrolled ? " Enrolled in the group's tutorial." : '';
    if (kind === 'already') {
      results.ignored.push({ row, message: `${username} is already in ${group.name}.${tutorialNote}` });
    } else {
      counts[kind] += 1;
      results.success.push({ row, message: `${kind === 'moved' ? 'Moved' : 'Added'} ${username} to ${group.name}.${tutorialNote}` });
    }
  }

  const done = [`${plural(counts.added + counts.moved, 'student')} added to groups`];
  if (counts.moved) done.push(`${counts.moved} of them moved from another group of the set`);
  if (counts.enrolled) done.push(`${plural(counts.enrolled, 'student')} enrolled in their group's tutorial`);
  return { result: summarise(done, results), ...results };
}
