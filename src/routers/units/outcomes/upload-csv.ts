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
        'Multipart field `file`: columns `unit_code, abbreviation, name, description` (any case and order; `ilo_number` may be present and is not used). ' +
        'Rows of another unit are ignored, abbreviations the unit already has are ignored (not changed), new outcomes are numbered after the last in file order. Without one of the four columns every row is an error "Missing headers: …", as in the original. ' +
        'Answers `{success, errors, ignored}`, each item `{row, message}`. Unit Convenor or Admin.',
      rest: { upload: {} },
    }),
  )
  .output(csvImportOut)
  .mutation(({ ctx, input }) => importCsvFile(input.file.path, (text) => importOutcomesCsv(ctx.em, ctx.unit, text)));
