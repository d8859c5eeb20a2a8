import { router } from '../../trpc/core.ts';

export const activityTypesRouter = router({});
