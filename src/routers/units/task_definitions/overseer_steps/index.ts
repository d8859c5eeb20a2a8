import { router } from '../../../../trpc/core.ts';
import { createOverseerStep } from './create.ts';
import { listOverseerSteps } from './list.ts';
import { updateOverseerStep } from './update.ts';

// /api/units/{unit_id}/task_definitions/{task_def_id}/overseer_steps (docs/assessment-steps.md);
// DELETE /api/overseer_steps/{id} is src/routers/overseer_steps/.
export const overseerStepsRouter = router({
  list: listOverseerSteps,
  create: createOverseerStep,
  update: updateOverseerStep,
});
