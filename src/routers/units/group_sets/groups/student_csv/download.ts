import { exportStudentGroupsCsv } from '../../../../../operations/units/group_sets/groups/student_csv/student-groups-csv.ts';
import { fileResult } from '../../../../../lib/files.ts';
import { route } from '../../../../../trpc/route.ts';
import { findGroupSet, unitQuery } from '../../../../../trpc/scopes/index.ts';
import { groupSetCsvInput } from './schemas.ts';

export const downloadStudentGroupsCsv = unitQuery(groupSetCsvInput, { action: 'update', refused: 'Not authorised to download csv of groups for this unit' })
  .meta(
    route(
      'GET',
      '/api/units/{unit_id}/group_sets/{group_set_id}/groups/student_csv',
      'Group sets and groups',
      'Who is in which group of a set, as CSV (unit convenor or Admin)',
      {
        description:
          '`<CODE>-<set>-student-groups.csv` with `group_name, username`: one row per active member whose project is enrolled, by group name ' +
          'then username; the format the upload reads.',
        rest: { file: true },
      },
    ),
  )
  .output(fileResult().meta({ contentMediaType: 'text/csv' }))
  .query(async ({ ctx, input }) => exportStudentGroupsCsv(ctx.em, ctx.unit, await findGroupSet(ctx.em, ctx.unit.id, input.group_set_id)));
