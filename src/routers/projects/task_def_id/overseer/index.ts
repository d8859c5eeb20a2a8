import { router } from '../../../../trpc/core.ts';
import { triggerOverseerAssessment } from './trigger.ts';

// /api/projects/{id}/task_def_id/{task_definition_id}/overseer_assessment/...
export const overseerRouter = router({
  trigger: triggerOverseerAssessment,
});
