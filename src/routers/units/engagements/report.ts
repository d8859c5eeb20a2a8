import { engagementReportOf } from '../../../operations/units/engagements/engagement-report.ts';
import { canInUnit } from '../../../policy/index.ts';
import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { engagementReportOut, reportInput } from './schemas.ts';

export const engagementReport = unitQuery(reportInput, {
  action: 'engagement_report',
  refused: 'Only staff of the unit may see its check-in report',
})
  .meta(
    route('GET', '/api/units/{unit_id}/engagements/report', 'Check-ins', 'Check-ins per tutorial per teaching week, and who has gone quiet', {
      description:
        "Convenors and Admins see every tutorial, a tutor the tutorials they teach. Weeks follow the unit's teaching period (paused over breaks). See docs/check-ins.md.",
    }),
  )
  .output(engagementReportOut)
  .query(({ ctx }) =>
    // What the answer shows: every tutorial's rows, or only the caller's own.
    engagementReportOf(ctx.em, ctx.unit, canInUnit(ctx.unitRole, 'engagement_report_all_tutorials') ? null : ctx.user.id, ctx.clock.now()),
  );
