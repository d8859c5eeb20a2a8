import { csvDownload, fileResult } from '../../../trpc/files.ts';
import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { taskCompletionCsv } from '../../../operations/csv/units/task-completion-csv.ts';
import { unitCsvInput } from './schemas.ts';

export const downloadTaskCompletion = unitQuery(unitCsvInput, {
  field: 'id',
  action: 'download_unit_csv',
  refused: (id) => `Not authorised to download CSV of students in unit ${id}`,
})
  .meta(
    route('GET', '/api/csv/units/{id}/task_completion', 'Units', "Every enrolled student's task statuses as CSV (staff of the unit, or Admin)", {
      description:
        '`<CODE>-TaskCompletion.csv`: `Student ID, Username, Student Name, Target Grade, Email, Portfolio, Grade, Rationale`, ' +
        'the tutorial per stream (or one `Tutorial` column), the group per group set, then per task definition (by target grade, start date, abbreviation) ' +
        'its status, and `<ABBR> grade`, `<ABBR> stars`, `<ABBR> contribution` when the task is graded, has quality points, or is a group task.',
      rest: { file: true },
    }),
  )
  .output(fileResult().meta({ contentMediaType: 'text/csv' }))
  .query(async ({ ctx }) => {
    const { filename, csv } = await taskCompletionCsv(ctx.em, ctx.unit);
    return csvDownload(filename, csv, 'text/csv');
  });
