import { router } from '../../../trpc/core.ts';
import { createTaskDefinitionProcedure } from './create.ts';
import { deleteTaskDefinitionProcedure } from './delete.ts';
import { definitionTasks } from './tasks.ts';
import { updateTaskDefinitionProcedure } from './update.ts';

/** /api/units/{unit_id}/task_definitions */
export const taskDefinitionsRouter = router({
  create: createTaskDefinitionProcedure,
  update: updateTaskDefinitionProcedure,
  delete: deleteTaskDefinitionProcedure,
  tasks: definitionTasks,
});
