import { router } from '../../../trpc/core.ts';
import { createTaskDefinitionProcedure } from './create.ts';
import { downloadTaskDefinitionsCsv } from './csv-download.ts';
import { uploadTaskDefinitionsCsv } from './csv-upload.ts';
import { deleteTaskDefinitionProcedure } from './delete.ts';
import { definitionTasks } from './tasks.ts';
import { updateTaskDefinitionProcedure } from './update.ts';

/** /api/units/{unit_id}/task_definitions */
export const taskDefinitionsRouter = router({
  create: createTaskDefinitionProcedure,
  update: updateTaskDefinitionProcedure,
  delete: deleteTaskDefinitionProcedure,
  tasks: definitionTasks,
  csvDownload: downloadTaskDefinitionsCsv,
  csvUpload: uploadTaskDefinitionsCsv,
});
