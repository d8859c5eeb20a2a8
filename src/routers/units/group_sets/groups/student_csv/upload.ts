import { uploadStudentGroupsCsv as upload } from '../../../../../operations/units/group_sets/groups/student_csv/student-groups-csv.ts';
import { canInGroup, canInUnit } from '../../../../../policy/index.ts';
import { route } from '../../../../../trpc/route.ts';
import { findGroupSet, setFlags, unitMutation } from '../../../../../trpc/scopes/index.ts';
import { csvUploadOut, groupSetCsvUploadInput } from './schemas.ts';

export const uploadStudentGroupsCsv = unitMutation(groupSetCsvUploadInput, {
  action: 'update',
  refused: 'Not authorised to upload csv of groups for this unit',
})
  .meta(
    route(
      'POST',
      '/api/units/{unit_id}/group_sets/{group_set_id}/groups/student_csv',
      'Group sets and groups',
      'Put students in groups from a CSV (unit convenor or Admin)',
      {
        description:
          'Multipart `file` with the columns `group_name, username`; each row puts the enrolled student in the named group, ' +
          'as POST .../members/{project_id} does for the convenor. ' +
          'Answers 200 `{result}`, a sentence saying what was done, with the rows in `success`, `errors` and `ignored`. See docs/api/users.md.',
        rest: { status: 200, upload: {} },
      },
    ),
  )
  .output(csvUploadOut)
  .mutation(async ({ ctx, input }) => {
    const set = await findGroupSet(ctx.em, ctx.unit.id, input.group_set_id);
    // Inside a group the caller keeps their unit role: only staff and admins pass unit :update.
    return upload(ctx.em, ctx.unit, set, input.file, {
      mayExceedCapacity: canInGroup(ctx.unitRole, 'can_exceed_capacity', { locked: false }, setFlags(set)),
      mayExceedTutorialCapacity: canInUnit(ctx.unitRole, 'exceed_capacity'),
    });
  });
