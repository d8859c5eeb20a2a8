import { router } from '../trpc/core.ts';
import { campusesRouter } from './campuses/index.ts';

// The whole API. Each key mirrors the spec path it serves (/api/campuses -> campuses).
export const appRouter = router({
  campuses: campusesRouter,
});

export type AppRouter = typeof appRouter;
