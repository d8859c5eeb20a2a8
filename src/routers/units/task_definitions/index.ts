import { router } from '../../../trpc/core.ts';
import { createTaskDefinitionProcedure } from './create.ts';
import { downloadTaskDefinitionsCsv } from './csv-download.ts';
import { uploadTaskDefinitionsCsv } from './csv-upload.ts';
import { deleteTaskDefinitionProcedure } from './delete.ts';
import { downloadTaskPdf } from './task_pdf.ts';
import { deleteTaskSheet } from './task_sheet_delete.ts';
import { uploadTaskSheet } from './task_sheet_upload.ts';
import { definitionTasks } from './tasks.ts';
import { updateTaskDefinitionProcedure } from './update.ts';

/** /api/units/{unit_id}/task_definitions */
export const taskDefinitionsRouter = router({
  create: createTaskDefinitionProcedure,
  update: updateTaskDefinitionProcedure,
  delete: deleteTaskDefinitionProcedure,
  tasks: definitionTasks,
  taskSheetUpload: uploadTaskSheet,
  taskSheetDelete: deleteTaskSheet,
  taskPdf: downloadTaskPdf,
  csvDownload: downloadTaskDefinitionsCsv,
  csvUpload: uploadTaskDefinitionsCsv,
});
