import { z } from 'zod';
import { rubricMarksCsv } from '../../../../operations/units/task_definitions/rubric_marks/marks-csv.ts';
import { idField } from '../../../../trpc/fields.ts';
import { csvDownload, fileResult } from '../../../../lib/files.ts';
import { route } from '../../../../trpc/route.ts';
import { unitQuery } from '../../../../trpc/scopes/index.ts';

export const rubricMarksCsvDownload = unitQuery(z.object({ unit_id: idField(), task_def_id: idField() }), {
  action: 'download_grades',
  refused: 'Not authorised to download marks of this unit',
})
  .meta(
    route('GET', '/api/units/{unit_id}/task_definitions/{task_def_id}/rubric_marks/csv', 'Rubrics', 'Download the rubric marks of a task definition as CSV', {
      description:
        "One row per enrolled student: username, name, each criterion's level and points, score, maximum, grade, quality points and marker. Unit staff and admins.",
      rest: { file: true },
    }),
  )
  .output(fileResult().meta({ contentMediaType: 'text/csv' }))
  .query(async ({ ctx, input }) =>
    csvDownload(`${ctx.unit.code}-rubric-marks-${input.task_def_id}.csv`, await rubricMarksCsv(ctx.em, ctx.unit.id, input.task_def_id)),
  );
