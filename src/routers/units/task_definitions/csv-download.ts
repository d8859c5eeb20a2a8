import { csvDownload, fileResult } from '../../../trpc/files.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { taskDefinitionsCsv } from './csv.ts';
import { taskDefinitionsCsvInput } from './csv-schemas.ts';

export const downloadTaskDefinitionsCsv = unitQuery(taskDefinitionsCsvInput, {
  action: 'download_unit_csv',
  refused: 'Not authorised to download task definitions of unit',
})
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/csv/task_definitions',
      tags: ['Task definitions'],
      summary: "The unit's task definitions as CSV",
      description:
        '`<CODE>-Tasks.csv` with the columns `name, abbreviation, description, weighting, target_grade, restrict_status_updates, max_quality_pts, is_graded, ' +
        'plagiarism_warn_pct, plagiarism_checks, group_set, upload_requirements, start_week, start_day, target_week, target_day, due_week, due_day, tutorial_stream`, ' +
        "in the unit page's order. Dates are teaching weeks of the unit's calendar (breaks not counted) and weekdays `Sun`..`Sat`; `plagiarism_checks` and " +
        '`upload_requirements` are JSON, so the file loads back through the upload unchanged. Unit Tutor, Convenor or Admin.',
    },
    rest: { file: true },
  })
  .output(fileResult().meta({ contentMediaType: 'text/csv' }))
  .query(async ({ ctx }) => csvDownload(`${ctx.unit.code}-Tasks.csv`, await taskDefinitionsCsv(ctx.em, ctx.unit)));
