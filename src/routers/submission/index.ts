import { router } from '../../trpc/core.ts';
import { assessRouter } from './assess/index.ts';
import { portfolioRouter } from './project/portfolio/index.ts';
import { unitZipsRouter } from './unit/index.ts';

// /api/submission/...: batch marking and portfolios.
export const submissionRouter = router({
  assess: assessRouter,
  portfolio: portfolioRouter,
  unit: unitZipsRouter,
});
