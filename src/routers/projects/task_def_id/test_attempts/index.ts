import { router } from '../../../../trpc/core.ts';
import { createAttempt } from './create.ts';
import { latestAttempt } from './latest.ts';
import { listAttempts } from './list.ts';

// .../test_attempts and .../test_attempts/latest: a task's attempts at its online test.
export const testAttemptsRouter = router({
  list: listAttempts,
  latest: latestAttempt,
  create: createAttempt,
});
