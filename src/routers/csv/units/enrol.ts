import { unitMutation } from '../../../trpc/scopes/index.ts';
import { route } from '../../../trpc/route.ts';
import { readCsv } from '../../../operations/csv/read-csv.ts';
import { importEnrolments } from '../../../operations/csv/units/import-enrolments.ts';
import { importResultOut, unitCsvUploadInput, uploadStudentsCsv } from './schemas.ts';

export const uploadEnrolments = unitMutation(unitCsvUploadInput, uploadStudentsCsv)
  .meta(
    route('POST', '/api/csv/units/{id}', 'Units', 'Enrol students from a CSV (unit convenor or Admin)', {
      description:
        'Multipart `file`, one row per student (a column per tutorial stream); missing users are created, withdrawn students enrolled ' +
        'again. Answers `{success, errors, ignored}`. See docs/api/units.md.',
      rest: { upload: {} },
    }),
  )
  .output(importResultOut)
  .mutation(async ({ ctx, input }) => importEnrolments(ctx.em, { id: ctx.unit.id, code: ctx.unit.code }, await readCsv(input.file)));
