import { unitMutation } from '../../../trpc/scopes/index.ts';
import { route } from '../../../trpc/route.ts';
import { readCsv } from '../../../operations/csv/read-csv.ts';
import { importWithdrawals } from '../../../operations/csv/units/import-withdrawals.ts';
import { importResultOut, unitCsvUploadInput, uploadStudentsCsv } from './schemas.ts';

export const uploadWithdrawals = unitMutation(unitCsvUploadInput, uploadStudentsCsv)
  .meta(
    route('POST', '/api/csv/units/{id}/withdraw', 'Units', 'Withdraw students listed in a CSV (unit convenor or Admin)', {
      description:
        'Multipart `file` with the header `unit_code, username`. Listed students are withdrawn; their tutorials and groups are kept for a ' +
        'return. Answers `{success, errors, ignored}`.',
      rest: { upload: {} },
    }),
  )
  .output(importResultOut)
  .mutation(async ({ ctx, input }) => importWithdrawals(ctx.em, { id: ctx.unit.id, code: ctx.unit.code }, await readCsv(input.file)));
