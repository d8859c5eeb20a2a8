import { exportGroupsCsv } from '../../../../../operations/units/group_sets/groups/csv/groups-csv.ts';
import { fileResult } from '../../../../../lib/files.ts';
import { route } from '../../../../../trpc/route.ts';
import { findGroupSet, unitQuery } from '../../../../../trpc/scopes/index.ts';
import { groupSetCsvInput } from './schemas.ts';

export const downloadGroupsCsv = unitQuery(groupSetCsvInput, { action: 'update', refused: 'Not authorised to download csv of groups for this unit' })
  .meta(
    route('GET', '/api/units/{unit_id}/group_sets/{group_set_id}/groups/csv', 'Group sets and groups', "A group set's groups as CSV (unit convenor or Admin)", {
      description:
        '`<CODE>-<set>-groups.csv` with `group_name, capacity_adjustment, tutorial, campus` (tutorial and campus by abbreviation), by ' +
        'group name: the format the upload reads.',
      rest: { file: true },
    }),
  )
  .output(fileResult().meta({ contentMediaType: 'text/csv' }))
  .query(async ({ ctx, input }) => exportGroupsCsv(ctx.em, ctx.unit, await findGroupSet(ctx.em, ctx.unit.id, input.group_set_id)));
