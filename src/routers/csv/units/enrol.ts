import { unitMutation } from '../../../trpc/scopes/index.ts';
import { route } from '../../../trpc/route.ts';
import { readCsv } from '../../../operations/csv/read-csv.ts';
import { importEnrolments } from '../../../operations/csv/units/import-enrolments.ts';
import { importResultOut, unitCsvUploadInput } from './schemas.ts';

export const uploadEnrolments = unitMutation(unitCsvUploadInput, {
  field: 'id',
  action: 'upload_csv',
  refused: (id) => `Not authorised to upload CSV of students to unit ${id}`,
})
  .meta(
    route('POST', '/api/csv/units/{id}', 'Units', 'Enrol students from a CSV (unit convenor or Admin)', {
      description:
        'Multipart `file` with the header `unit_code, username, student_id, first_name, last_name, email, campus` and one column per tutorial stream abbreviation (or one `tutorial` column when the unit has no streams), matched case-insensitively. Users missing are created as students without a password (they sign in by single sign-on, or once a password is set); withdrawn students are enrolled again; a campus that differs is replaced; each tutorial cell enrols in that tutorial, replacing the enrolment in its stream. Rows for another unit are ignored. Answers `{success, errors, ignored}`, each a list of `{row, message}`.',
      rest: { upload: {} },
    }),
  )
  .output(importResultOut)
  .mutation(async ({ ctx, input }) => importEnrolments(ctx.em, { id: ctx.unit.id, code: ctx.unit.code }, await readCsv(input.file)));
