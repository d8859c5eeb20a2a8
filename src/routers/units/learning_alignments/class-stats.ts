import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { CANNOT_READ_STATS, TAG } from './messages.ts';
import { unitClassDetails, unitClassStats } from '../../../operations/units/learning_alignments/progress-data.ts';
import { classDetailsOut, classStatsOut, unitIdInput } from './schemas.ts';

const HOW =
  "A student's score on an outcome is the sum, over their tasks of definitions the unit aligns to it, of rating × status weight (complete 1, discuss and demonstrate 0.8, ready_for_feedback 0.7, time_exceeded 0.5, fix_and_resubmit 0.3, redo and feedback_exceeded 0.1, others 0) × target-grade weight (Pass 1, Credit 2, Distinction 4, High Distinction 8). " +
  'Only enrolled students with such tasks count. A statistic is `{median, lower, upper, min, max}` over the sorted scores (an outcome a student has no work on counts 0): the median of an even count is the mean of the middle two, to one decimal; lower and upper are the values at index ⌊n·3/10⌋ and ⌊n·8/10⌋; all zeros without students.';

export const classStatsProcedure = unitQuery(unitIdInput, { action: 'get_unit', refused: CANNOT_READ_STATS })
  .meta(
    route('GET', '/api/units/{unit_id}/learning_alignments/class_stats', TAG, "The class's progress on each learning outcome", {
      description: `Outcome id → statistic over the unit's students, for every outcome of the unit. ${HOW} Anyone in the unit.`,
    }),
  )
  .output(classStatsOut)
  .query(({ ctx }) => unitClassStats(ctx.em, ctx.unit.id));

export const classDetailsProcedure = unitQuery(unitIdInput, { action: 'provide_feedback', refused: CANNOT_READ_STATS })
  .meta(
    route('GET', '/api/units/{unit_id}/learning_alignments/class_details', TAG, "Each tutorial's progress on each learning outcome", {
      description: `Tutorial id → outcome id → statistic, for every tutorial of the unit (zeros where no student has aligned work), and \`all\` as in class_stats. A task counts in the student's tutorial of its definition's stream (or one without a stream). ${HOW} Tutors and Convenors of the unit.`,
    }),
  )
  .output(classDetailsOut)
  .query(({ ctx }) => unitClassDetails(ctx.em, ctx.unit.id));
