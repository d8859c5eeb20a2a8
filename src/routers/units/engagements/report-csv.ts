import { fileResult } from '../../../lib/files.ts';
import { engagementReportCsv } from '../../../operations/units/engagements/engagement-report.ts';
import { canInUnit } from '../../../policy/index.ts';
import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { reportInput } from './schemas.ts';

export const engagementReportCsvProcedure = unitQuery(reportInput, {
  action: 'engagement_report',
  refused: 'Only staff of the unit may see its check-in report',
})
  .meta(
    route('GET', '/api/units/{unit_id}/engagements/report/csv', 'Check-ins', 'The check-in report as CSV', {
      description:
        '`<CODE>-check-ins.csv`: `tutorial, tutor, username, name, week_1 … week_n, total, last_engagement_at, weeks_quiet`, a row per student per tutorial; who sees which rows as for the report.',
      rest: { file: true },
    }),
  )
  .output(fileResult().meta({ contentMediaType: 'text/csv' }))
  .query(({ ctx }) =>
    // What the answer shows: every tutorial's rows, or only the caller's own.
    engagementReportCsv(ctx.em, ctx.unit, canInUnit(ctx.unitRole, 'engagement_report_all_tutorials') ? null : ctx.user.id, ctx.clock.now()),
  );
