import { fileResult } from '../../../lib/files.ts';
import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { taskCompletionCsv } from '../../../operations/csv/units/task-completion-csv.ts';
import { downloadStudentsCsv, unitCsvInput } from './schemas.ts';

export const downloadTaskCompletion = unitQuery(unitCsvInput, downloadStudentsCsv)
  .meta(
    route('GET', '/api/csv/units/{id}/task_completion', 'Units', "Every enrolled student's task statuses as CSV (staff of the unit, or Admin)", {
      description:
        "`<CODE>-TaskCompletion.csv`: per enrolled student their grades, tutorials and groups, then each task's status (and grade, stars, " +
        'contribution where they apply). See docs/api/units.md.',
      rest: { file: true },
    }),
  )
  .output(fileResult().meta({ contentMediaType: 'text/csv' }))
  .query(({ ctx }) => taskCompletionCsv(ctx.em, ctx.unit));
