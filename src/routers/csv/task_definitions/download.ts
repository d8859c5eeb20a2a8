import { taskDefinitionsCsv } from '../../../operations/csv/task_definitions/task-definitions-csv.ts';
import { csvDownload, fileResult } from '../../../lib/files.ts';
import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { taskDefinitionsCsvInput } from './schemas.ts';

export const downloadTaskDefinitionsCsv = unitQuery(taskDefinitionsCsvInput, {
  action: 'download_unit_csv',
  refused: 'Not authorised to download task definitions of unit',
})
  .meta(
    route('GET', '/api/csv/task_definitions', 'Task definitions', "The unit's task definitions as CSV", {
      description:
        '`<CODE>-Tasks.csv`: one row per definition, dates as teaching weeks and weekdays, loadable through the upload unchanged. ' +
        'Unit Tutor, Convenor or Admin. See docs/api/taskdefs.md.',
      rest: { file: true },
    }),
  )
  .output(fileResult().meta({ contentMediaType: 'text/csv' }))
  .query(async ({ ctx }) => csvDownload(`${ctx.unit.code}-Tasks.csv`, await taskDefinitionsCsv(ctx.em, ctx.unit)));
