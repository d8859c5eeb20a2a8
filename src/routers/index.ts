import { router } from '../trpc/core.ts';
import { authRouter } from './auth/index.ts';
import { campusesRouter } from './campuses/index.ts';

// The whole API. Each key mirrors the spec path it serves (/api/campuses -> campuses).
export const appRouter = router({
  auth: authRouter,
  campuses: campusesRouter,
});

export type AppRouter = typeof appRouter;
