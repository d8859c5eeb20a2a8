import { router } from '../../../../trpc/core.ts';
import { createTaskPrerequisite } from './create.ts';
import { deleteTaskPrerequisite } from './delete.ts';
import { listTaskPrerequisites } from './list.ts';

// /api/units/{unit_id}/task_definitions/{task_def_id}/prerequisites[/{id}] (docs/prerequisites.md).
export const prerequisitesRouter = router({
  list: listTaskPrerequisites,
  create: createTaskPrerequisite,
  delete: deleteTaskPrerequisite,
});
