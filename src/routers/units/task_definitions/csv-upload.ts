import { readFile } from 'node:fs/promises';
import { CsvError, decodeCsv } from '../../../domain/csv.ts';
import { checkCsv, notOfKindMessage } from '../../../lib/file-kinds.ts';
import { badRequest, forbidden } from '../../../trpc/errors.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { csvImportOut } from '../outcomes/schemas.ts';
import { importTaskDefinitionsCsv } from './csv.ts';
import { taskDefinitionsCsvUploadInput } from './csv-schemas.ts';

export const uploadTaskDefinitionsCsv = unitMutation(taskDefinitionsCsvUploadInput, {
  action: 'upload_csv',
  refused: 'Not authorised to upload CSV of tasks',
})
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/csv/task_definitions',
      tags: ['Task definitions'],
      summary: 'Create or update task definitions from a CSV file',
      description:
        'Multipart `file` and `unit_id`. The columns of the download, all required, in any case and order. A row updates the definition with its abbreviation ' +
        "(else its name) or creates one, under the rules of create; weeks and weekdays become dates of the unit's calendar; booleans accept yes, y, true and 1; " +
        '`group_set` is a group set name and `tutorial_stream` a stream abbreviation of the unit. A refused row changes nothing and the others still apply. ' +
        'Answers `{success, errors, ignored}`, each item `{row, message}`. Unit Convenor or Admin.',
    },
    rest: { upload: {} },
  })
  .output(csvImportOut)
  .mutation(async ({ ctx, input }) => {
    const kind = await checkCsv(input.file.path);
    if (!kind.ok) throw forbidden(notOfKindMessage('csv', kind.detected));
    try {
      return await importTaskDefinitionsCsv(ctx.em, ctx.unit, decodeCsv(await readFile(input.file.path)));
    } catch (error) {
      if (error instanceof CsvError) throw badRequest(error.message);
      throw error;
    }
  });
