import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { CANNOT_READ_STATS, TAG } from './messages.ts';
import { unitClassDetails, unitClassStats } from '../../../operations/units/learning_alignments/progress-data.ts';
import { classDetailsOut, classStatsOut, unitIdInput } from './schemas.ts';

export const classStatsProcedure = unitQuery(unitIdInput, { action: 'get_unit', refused: CANNOT_READ_STATS })
  .meta(
    route('GET', '/api/units/{unit_id}/learning_alignments/class_stats', TAG, "The class's progress on each learning outcome", {
      description:
        "Outcome id → `{median, lower, upper, min, max}` of the students' weighted ratings, for every outcome of the unit. Anyone in the " +
        'unit. See docs/api/units.md.',
    }),
  )
  .output(classStatsOut)
  .query(({ ctx }) => unitClassStats(ctx.em, ctx.unit.id));

export const classDetailsProcedure = unitQuery(unitIdInput, { action: 'provide_feedback', refused: CANNOT_READ_STATS })
  .meta(
    route('GET', '/api/units/{unit_id}/learning_alignments/class_details', TAG, "Each tutorial's progress on each learning outcome", {
      description:
        'Tutorial id → outcome id → statistic for every tutorial of the unit, and `all` as in class_stats. Tutors and Convenors of the ' +
        'unit. See docs/api/units.md.',
    }),
  )
  .output(classDetailsOut)
  .query(({ ctx }) => unitClassDetails(ctx.em, ctx.unit.id));
