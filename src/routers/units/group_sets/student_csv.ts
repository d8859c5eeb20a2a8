// GET and POST /api/units/{unit_id}/group_sets/{group_set_id}/groups/student_csv: who is in which
// group of a set, as CSV, and students put in groups from one (unit :update).
import { db } from '../../../db/kysely.ts';
import { writeCsv } from '../../../domain/csv.ts';
import { canInGroup, canInUnit } from '../../../policy/index.ts';
import { router } from '../../../trpc/core.ts';
import { csvDownload, fileResult } from '../../../trpc/files.ts';
import { findGroupSet, setFlags, unitMutation, unitQuery } from '../../../trpc/scopes/index.ts';
import { csvName } from './csv.ts';
import { csvUploadOut, groupSetCsvInput, groupSetCsvUploadInput, uploadedRows } from './csv-upload.ts';
import { importStudentGroupsCsv, STUDENT_CSV_COLUMNS } from './student_csv-import.ts';

const PATH = '/api/units/{unit_id}/group_sets/{group_set_id}/groups/student_csv';

export const downloadStudentGroupsCsv = unitQuery(groupSetCsvInput, { action: 'update', refused: 'Not authorised to download csv of groups for this unit' })
  .meta({
    openapi: {
      method: 'GET',
      path: PATH,
      tags: ['Group sets and groups'],
      summary: 'Who is in which group of a set, as CSV (unit convenor or Admin)',
      description:
        '`<CODE>-<set>-student-groups.csv` with `group_name, username`: one row per active member whose project is enrolled, by group name then username; the format the upload reads.',
    },
    rest: { file: true },
  })
  .output(fileResult().meta({ contentMediaType: 'text/csv' }))
  .query(async ({ ctx, input }) => {
    const set = await findGroupSet(ctx.em, ctx.unit.id, input.group_set_id);
    const rows = await db(ctx.em)
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
    return csvDownload(
      csvName(ctx.unit.code, set.name, 'student-groups'),
      writeCsv(
        STUDENT_CSV_COLUMNS,
        rows.map((r) => [r.name, r.username]),
      ),
    );
  });

export const uploadStudentGroupsCsv = unitMutation(groupSetCsvUploadInput, {
  action: 'update',
  refused: 'Not authorised to upload csv of groups for this unit',
})
  .meta({
    openapi: {
      method: 'POST',
      path: PATH,
      tags: ['Group sets and groups'],
      summary: 'Put students in groups from a CSV (unit convenor or Admin)',
      description:
        'Multipart `file` with the columns `group_name, username` in any case and order. Each row puts the enrolled student in the named group of the set through the same operation as POST .../members/{project_id}, as the convenor: a membership elsewhere in the set moves, a locked group refuses, capacity may be exceeded. In a set that keeps groups in one class the student is first enrolled in the group\'s tutorial. Unknown groups and users, and students not enrolled in the unit, are row errors; a row that fails changes nothing; a student already in the group is ignored. A file that is not text is refused (403 "File given is not a csv file - detected <type>"); a missing column is a 400. Answers 200 `{result}`, a sentence saying what was done (students added, moved, enrolled in a tutorial, rows ignored, row errors), with the rows behind it in `success`, `errors` and `ignored`.',
    },
    rest: { status: 200, upload: {} },
  })
  .output(csvUploadOut)
  .mutation(async ({ ctx, input }) => {
    const set = await findGroupSet(ctx.em, ctx.unit.id, input.group_set_id);
    const rows = await uploadedRows(input.file, STUDENT_CSV_COLUMNS);
    // Inside a group the caller keeps their unit role: only staff and admins pass unit :update.
    return importStudentGroupsCsv(ctx.em, ctx.unit, set, rows, {
      mayExceedCapacity: canInGroup(ctx.unitRole, 'can_exceed_capacity', { locked: false }, setFlags(set)),
      mayExceedTutorialCapacity: canInUnit(ctx.unitRole, 'exceed_capacity'),
    });
  });

/** .../groups/student_csv (GET download, POST upload). */
export const studentGroupsCsvRouter = router({ download: downloadStudentGroupsCsv, upload: uploadStudentGroupsCsv });
