import { router } from '../../trpc/core.ts';
import { deleteAttempt } from './delete.ts';
import { reviewAttempt } from './review.ts';
import { updateAttempt } from './update.ts';

// /api/test_attempts/{id}...: one attempt at a task's online test, by its own id.
export const testAttemptsRouter = router({
  update: updateAttempt,
  review: reviewAttempt,
  delete: deleteAttempt,
});
