import { readFile } from 'node:fs/promises';
import { CsvError, decodeCsv, looksBinary } from '../../../domain/csv.ts';
import { badRequest, forbidden } from '../../../trpc/errors.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { importOutcomesCsv } from '../../../operations/units/outcomes/change-outcomes.ts';
import { csvImportOut, uploadOutcomesInput } from './schemas.ts';

/** The original's refusal of a file that is not CSV (reference §2.3). */
export const NOT_CSV = 'File given is not a csv file - detected application/octet-stream';

export const uploadOutcomesCsv = unitMutation(uploadOutcomesInput, {
  action: 'upload_csv',
  refused: 'Not authorised to upload CSV of outcomes',
})
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/units/{unit_id}/outcomes/csv',
      tags: ['Outcomes'],
      summary: 'Add learning outcomes from a CSV file',
      description:
        'Multipart field `file`: columns `unit_code, abbreviation, name, description` (any case and order; `ilo_number` may be present and is not used). ' +
        'Rows of another unit are ignored, abbreviations the unit already has are ignored (not changed), new outcomes are numbered after the last in file order. Without one of the four columns every row is an error "Missing headers: …", as in the original. ' +
        'Answers `{success, errors, ignored}`, each item `{row, message}`. Unit Convenor or Admin.',
    },
    rest: { upload: {} },
  })
  .output(csvImportOut)
  .mutation(async ({ ctx, input }) => {
    const bytes = await readFile(input.file.path);
    if (looksBinary(bytes)) throw forbidden(NOT_CSV);
    try {
      return await importOutcomesCsv(ctx.em, ctx.unit, decodeCsv(bytes));
    } catch (error) {
      if (error instanceof CsvError) throw badRequest(error.message);
      throw error;
    }
  });
