import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { importCsvFile } from '../../../operations/csv/read-csv.ts';
import { importOutcomesCsv } from '../../../operations/units/outcomes/change-outcomes.ts';
import { csvImportOut, uploadOutcomesInput } from './schemas.ts';

export const uploadOutcomesCsv = unitMutation(uploadOutcomesInput, {
  action: 'upload_csv',
  refused: 'Not authorised to upload CSV of outcomes',
})
  .meta(
    route('POST', '/api/units/{unit_id}/outcomes/csv', 'Outcomes', 'Add learning outcomes from a CSV file', {
      description:
        "Multipart `file`: new outcomes by abbreviation, numbered after the last; known abbreviations and other units' rows are ignored. " +
        'Answers `{success, errors, ignored}`. Unit Convenor or Admin. See docs/api/units.md.',
      rest: { upload: {} },
    }),
  )
  .output(csvImportOut)
  .mutation(({ ctx, input }) => importCsvFile(input.file.path, (text) => importOutcomesCsv(ctx.em, ctx.unit, text)));
