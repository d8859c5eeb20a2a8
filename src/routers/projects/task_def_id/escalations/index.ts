import { router } from '../../../../trpc/core.ts';
import { createEscalation } from './create.ts';
import { listEscalations } from './list.ts';
import { resolveEscalation } from './resolve.ts';

/** /api/projects/{project_id}/task_def_id/{task_definition_id}/escalations */
export const escalationsRouter = router({
  list: listEscalations,
  create: createEscalation,
  resolve: resolveEscalation,
});
