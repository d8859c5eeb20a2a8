import { router } from '../../trpc/core.ts';
import { createUnitProcedure } from './create.ts';
import { getUnit } from './get.ts';
import { downloadGrades } from './grades.ts';
import { listUnits } from './list.ts';
import { rolloverUnitProcedure } from './rollover.ts';
import { studentTargetGradeProcedure, taskCompletionStatsProcedure, taskStatusPctProcedure } from './stats.ts';
import { updateUnitProcedure } from './update.ts';

/** /api/units and /api/units/{id}[/...] (nested resources have their own routers). */
export const unitsRouter = router({
  list: listUnits,
  create: createUnitProcedure,
  get: getUnit,
  update: updateUnitProcedure,
  rollover: rolloverUnitProcedure,
  grades: downloadGrades,
  stats: router({
    taskCompletionStats: taskCompletionStatsProcedure,
    taskStatusPct: taskStatusPctProcedure,
    studentTargetGrade: studentTargetGradeProcedure,
  }),
});
