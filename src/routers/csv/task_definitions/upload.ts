import { importTaskDefinitionsCsvFile } from '../../../operations/csv/task_definitions/task-definitions-csv.ts';
import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { csvImportOut } from '../../units/outcomes/schemas.ts';
import { taskDefinitionsCsvUploadInput } from './schemas.ts';

export const uploadTaskDefinitionsCsv = unitMutation(taskDefinitionsCsvUploadInput, {
  action: 'upload_csv',
  refused: 'Not authorised to upload CSV of tasks',
})
  .meta(
    route('POST', '/api/csv/task_definitions', 'Task definitions', 'Create or update task definitions from a CSV file', {
      description:
        'Multipart `file` and `unit_id`: each row creates or updates a definition; a refused row changes nothing. Answers `{success, ' +
        'errors, ignored}`. Unit Convenor or Admin. See docs/api/taskdefs.md.',
      rest: { upload: {} },
    }),
  )
  .output(csvImportOut)
  .mutation(({ ctx, input }) => importTaskDefinitionsCsvFile(ctx.em, ctx.unit, input.file.path));
