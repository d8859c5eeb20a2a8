import { router } from '../../trpc/core.ts';
import { discussionPromptsRouter } from './discussion_prompts/index.ts';

// /api/task_definitions/{td_id}/...: a task definition addressed by its own id, its unit the scope.
// (/api/units/{unit_id}/task_definitions/... is src/routers/units/task_definitions/.)
export const topTaskDefinitionsRouter = router({
  discussionPrompts: discussionPromptsRouter,
});
