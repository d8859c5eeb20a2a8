import { router } from '../../../trpc/core.ts';
import { downloadUnitPortfolios } from './portfolios.ts';
import { downloadTaskPdfs, downloadTaskSubmissions } from './task_definitions/task-zips.ts';

// /api/submission/unit/{id}/...: unit-wide zips for the unit's staff.
export const unitZipsRouter = router({
  portfolios: downloadUnitPortfolios,
  taskPdfs: downloadTaskPdfs,
  taskSubmissions: downloadTaskSubmissions,
});
