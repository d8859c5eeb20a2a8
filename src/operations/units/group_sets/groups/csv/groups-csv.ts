// Groups from a CSV of `group_name, capacity_adjustment, tutorial, campus` (behaviour.md §9.3):
// each row finds or creates its group in the set, in the tutorial with that abbreviation (created
// on Monday at 8:00am, room TBA, taught by the main convenor, when the unit has none), and sets
// its capacity adjustment. Groups are made and changed through the group-set operations, so the
// rules are those of the REST routes (a keep-in-class group moving tutorial takes its members).
import { Group, type IGroupSet } from '../../../../../../schema/index.ts';
import { db } from '../../../../../db/kysely.ts';
import type { Em } from '../../../../../db/orm.ts';
import type { CsvRow } from '../../../../../domain/csv.ts';
import { badRequest } from '../../../../../lib/errors.ts';
import type { FileResult, UploadedFile } from '../../../../../lib/files.ts';
import { createTutorial } from '../../../../tutorials/change-tutorials.ts';
import { inSavepoint, plural, summarise, type RowResults } from '../../../../import-rows.ts';
import { createGroup, tutorialIdOfGroup, updateGroup } from '../change-group.ts';
import { setCsvFile, uploadedRows, type CsvUploadOut } from '../group-csv-files.ts';

export const GROUP_CSV_COLUMNS = ['group_name', 'capacity_adjustment', 'tutorial', 'campus'] as const;
export const GROUP_CSV_REQUIRED = ['group_name', 'tutorial', 'capacity_adjustment'] as const;

const WHOLE = /^[+-]?\d+$/;
/** Far beyond any real group, and inside the column's integer range. */
const MAX_ADJUSTMENT = 100_000;

interface Campus {
  id: number;
  name: string;
  abbreviation: string;
}

/** The groups of a set as CSV, by group name: the format the upload reads. */
export async function exportGroupsCsv(em: Em, unit: { code: string }, set: IGroupSet): Promise<FileResult> {
  const rows = await db(em)
    .selectFrom('groups as g')
    .innerJoin('tutorials as t', 't.id', 'g.tutorial_id')
    .leftJoin('campuses as c', 'c.id', 't.campus_id')
    .select(['g.name', 'g.capacity_adjustment', 't.abbreviation', 'c.abbreviation as campus'])
    .where('g.group_set_id', '=', set.id)
    .orderBy('g.name')
    .execute();
  return setCsvFile(
    unit,
    set,
    'groups',
    GROUP_CSV_COLUMNS,
    rows.map((r) => [r.name, r.capacity_adjustment, r.abbreviation, r.campus]),
  );
}

/** Sets up the set's groups from an uploaded CSV. */
export async function uploadGroupsCsv(em: Em, unit: { id: number; code: string }, set: IGroupSet, file: UploadedFile): Promise<CsvUploadOut> {
  return importGroupsCsv(em, unit, set, await uploadedRows(file, GROUP_CSV_REQUIRED));
}

export async function importGroupsCsv(em: Em, unit: { id: number; code: string }, groupSet: IGroupSet, rows: CsvRow[]): Promise<CsvUploadOut> {
  const results: RowResults = { success: [], errors: [], ignored: [] };
  const campuses: Campus[] = await db(em).selectFrom('campuses').select(['id', 'name', 'abbreviation']).execute();
  const mainConvenor = await db(em)
    .selectFrom('units as u')
    .innerJoin('unit_roles as r', 'r.id', 'u.main_convenor_id')
    .select('r.user_id')
    .where('u.id', '=', unit.id)
    .executeTakeFirst();
  let created = 0;
  let updated = 0;
  let unchanged = 0;
  let tutorials = 0;

  for (const row of rows) {
    const problem = rowProblem(row, campuses);
    if (problem) {
      results.errors.push({ row, message: problem });
      continue;
    }
    const adjustment = row.capacity_adjustment === '' ? 0 : Number(row.capacity_adjustment);
    const applied = await inSavepoint(em, async (tx) => {
      const notes: string[] = [];
      let tutorial = await db(tx)
        .selectFrom('tutorials')
        .select('id')
        .where('unit_id', '=', unit.id)
        .where('abbreviation', '=', row.tutorial)
        .executeTakeFirst();
      if (!tutorial) {
        if (!mainConvenor) throw badRequest(`Unable to create tutorial ${row.tutorial}: the unit has no main convenor to teach it`);
        const campus = row.campus ? findCampus(campuses, row.campus) : undefined;
        tutorial = await createTutorial(tx, unit.id, {
          tutorUserId: mainConvenor.user_id,
          campusId: campus?.id ?? null,
          capacity: -1,
          abbreviation: row.tutorial,
          meetingDay: 'Monday',
          meetingTime: '8:00am',
          meetingLocation: 'TBA',
        });
        notes.push('Created new tutorial.');
        tutorials += 1;
      }
      const group = await tx.findOne(Group, { groupSet: groupSet.id, name: row.group_name });
      if (!group) {
        await createGroup(tx, { groupSet, tutorialId: tutorial.id, name: row.group_name, capacityAdjustment: adjustment });
        notes.push('Created new group.');
        return { kind: 'created' as const, notes };
      }
      if (tutorialIdOfGroup(group) === tutorial.id && group.capacityAdjustment === adjustment) return { kind: 'unchanged' as const, notes };
      await updateGroup(tx, group, groupSet, { tutorialId: tutorial.id, capacityAdjustment: adjustment });
      return { kind: 'updated' as const, notes };
    });
    if (!applied.ok) {
      results.errors.push({ row, message: `${row.group_name}: ${applied.message}` });
      continue;
    }
    const { kind, notes } = applied.value;
    if (kind === 'created') created += 1;
    if (kind === 'updated') updated += 1;
    if (kind === 'unchanged') {
      unchanged += 1;
      results.ignored.push({ row, message: `${row.group_name} is already set up this way.` });
    } else {
      results.success.push({ row, message: [`Setup ${row.group_name}.`, ...notes].join(' ') });
    }
  }

  const done = [`${plural(created, 'group')} created`, `${updated} updated`];
  if (unchanged) done.push(`${unchanged} unchanged`);
  if (tutorials) done.push(`${plural(tutorials, 'tutorial')} created`);
  return { result: summarise(done, results), ...results };
}

function findCampus(campuses: Campus[], text: string): Campus | undefined {
  const t = text.toLowerCase();
  return campuses.find((c) => c.abbreviation.toLowerCase() === t || c.name.toLowerCase() === t);
}

function rowProblem(row: CsvRow, campuses: Campus[]): string | null {
  if (row.group_name === '') return 'Missing group_name';
  if (row.group_name.length > 255) return `${row.group_name.slice(0, 20)}...: the group name is too long (maximum is 255 characters)`;
  if (row.tutorial === '') return `${row.group_name}: missing tutorial`;
  if (row.tutorial.length > 255) return `${row.group_name}: the tutorial abbreviation is too long (maximum is 255 characters)`;
  const adjustment = row.capacity_adjustment;
  if (adjustment !== '' && (!WHOLE.test(adjustment) || Math.abs(Number(adjustment)) > MAX_ADJUSTMENT))
    return `${row.group_name}: capacity_adjustment must be a whole number (at most ${MAX_ADJUSTMENT} either way)`;
  if (row.campus && !findCampus(campuses, row.campus)) return `${row.group_name}: unable to find campus (${row.campus})`;
  return null;
}
