import { router } from '../../trpc/core.ts';

export const teachingPeriodsRouter = router({});
