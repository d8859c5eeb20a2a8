import { uploadGroupsCsv as upload } from '../../../../../operations/units/group_sets/groups/csv/groups-csv.ts';
import { route } from '../../../../../trpc/route.ts';
import { findGroupSet, unitMutation } from '../../../../../trpc/scopes/index.ts';
import { csvUploadOut, groupSetCsvUploadInput } from './schemas.ts';

export const uploadGroupsCsv = unitMutation(groupSetCsvUploadInput, { action: 'update', refused: 'Not authorised to upload csv of groups for this unit' })
  .meta(
    route('POST', '/api/units/{unit_id}/group_sets/{group_set_id}/groups/csv', 'Group sets and groups', 'Set up groups from a CSV (unit convenor or Admin)', {
      description:
        'Multipart `file` with the columns `group_name, tutorial, capacity_adjustment` and an optional `campus`; ' +
        'each row finds or creates its group and tutorial. ' +
        'Answers 200 `{result}`, a sentence saying what was done, with the rows in `success`, `errors` and `ignored`. See docs/api/users.md.',
      rest: { status: 200, upload: {} },
    }),
  )
  .output(csvUploadOut)
  .mutation(async ({ ctx, input }) => upload(ctx.em, ctx.unit, await findGroupSet(ctx.em, ctx.unit.id, input.group_set_id), input.file));
