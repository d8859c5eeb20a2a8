import { route } from '../../trpc/route.ts';
import { unitQuery } from '../../trpc/scopes/index.ts';
import { moderationReport } from '../../operations/units/moderation_samples/moderation.ts';
import { reportOut, unitIdInput } from './moderation_samples/schemas.ts';

export const moderationReportProcedure = unitQuery(unitIdInput, {
  action: 'oversee_marking',
  refused: 'Only a convenor of the unit may see the moderation report',
})
  .meta(
    route('GET', '/api/units/{unit_id}/moderation_report', 'Moderation', 'Disagreement rates per tutor', {
      description: 'Per assessor per task definition, and per assessor overall: sampled, reviewed, disagreed and disagreed / reviewed.',
    }),
  )
  .output(reportOut)
  .query(({ ctx }) => moderationReport(ctx.em, ctx.unit.id));
