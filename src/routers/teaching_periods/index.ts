import { router } from '../../trpc/core.ts';
import { breaksRouter } from './breaks/index.ts';
import { createTeachingPeriod } from './create.ts';
import { deleteTeachingPeriod } from './delete.ts';
import { getTeachingPeriod } from './get.ts';
import { listTeachingPeriods } from './list.ts';
import { rolloverTeachingPeriodProcedure } from './rollover.ts';
import { updateTeachingPeriod } from './update.ts';

export const teachingPeriodsRouter = router({
  list: listTeachingPeriods,
  get: getTeachingPeriod,
  create: createTeachingPeriod,
  update: updateTeachingPeriod,
  delete: deleteTeachingPeriod,
  breaks: breaksRouter,
  rollover: rolloverTeachingPeriodProcedure,
});
