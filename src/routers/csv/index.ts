import { router } from '../../trpc/core.ts';
import { unitCsvRouter } from './units/index.ts';
import { userCsvRouter } from './users/index.ts';

// /api/csv/...: the CSV uploads and downloads the spec leaves out (beyond-spec.md §2.4, §7).
export const csvRouter = router({
  units: unitCsvRouter,
  users: userCsvRouter,
});
