import { csvDownload, fileResult } from '../../../lib/files.ts';
import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { templatesCsv } from '../../../operations/units/feedback_templates/templates-csv.ts';
import { unitIdInput } from './schemas.ts';

export const downloadTemplatesCsv = unitQuery(unitIdInput, {
  action: 'read_feedback_templates',
  refused: 'You are not authorised to read the feedback templates of this unit.',
})
  .meta(
    route('GET', '/api/units/{unit_id}/feedback_templates/csv', 'Feedback templates', "Download a unit's feedback templates as CSV", {
      description: 'Columns `group, task_definition, title, text, suggested_status`; file `<CODE>-FeedbackTemplates.csv`. Staff of the unit.',
      rest: { file: true },
    }),
  )
  .output(fileResult().meta({ contentMediaType: 'text/csv' }))
  .query(async ({ ctx }) => csvDownload(`${ctx.unit.code}-FeedbackTemplates.csv`, await templatesCsv(ctx.em, ctx.unit)));
