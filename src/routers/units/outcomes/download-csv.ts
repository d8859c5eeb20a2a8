import { csvDownload, fileResult } from '../../../lib/files.ts';
import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { outcomesCsv } from '../../../operations/units/outcomes/change-outcomes.ts';
import { unitIdInput } from './schemas.ts';

export const downloadOutcomesCsv = unitQuery(unitIdInput, {
  action: 'update',
  refused: 'You are not authorised to download outcomes for this unit.',
})
  .meta(
    route('GET', '/api/units/{unit_id}/outcomes/csv', 'Outcomes', "Download a unit's learning outcomes as CSV", {
      description:
        'Columns `unit_code, ilo_number, abbreviation, name, description`, in number order; file `<CODE>-LearningOutcomes.csv`. Unit Convenor or Admin.',
      rest: { file: true },
    }),
  )
  .output(fileResult().meta({ contentMediaType: 'text/csv' }))
  .query(async ({ ctx }) => csvDownload(`${ctx.unit.code}-LearningOutcomes.csv`, await outcomesCsv(ctx.em, ctx.unit)));
