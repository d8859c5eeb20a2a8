import { router } from '../../trpc/core.ts';
import { deleteOverseerStep } from './delete.ts';

// /api/overseer_steps/{id} (docs/assessment-steps.md).
export const overseerStepRouter = router({
  delete: deleteOverseerStep,
});
