import { router } from '../../../../trpc/core.ts';
import { deletePortfolio } from './delete.ts';
import { downloadPortfolio } from './download.ts';
import { uploadPortfolioPart } from './upload.ts';

// /api/submission/project/{id}/portfolio: a student's portfolio parts and the compiled portfolio.
export const portfolioRouter = router({
  upload: uploadPortfolioPart,
  download: downloadPortfolio,
  delete: deletePortfolio,
});
