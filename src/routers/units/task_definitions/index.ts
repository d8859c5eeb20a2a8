import { router } from '../../../trpc/core.ts';
import { createTaskDefinitionProcedure } from './create.ts';
import { downloadTaskDefinitionsCsv } from './csv-download.ts';
import { uploadTaskDefinitionsCsv } from './csv-upload.ts';
import { deleteTaskDefinitionProcedure } from './delete.ts';
import { downloadTaskPdf } from './task_pdf.ts';
import { deleteTaskSheet } from './task_sheet_delete.ts';
import { uploadTaskSheet } from './task_sheet_upload.ts';
import { deleteTaskAssessmentResources } from './task_assessment_resources_delete.ts';
import { downloadTaskAssessmentResources } from './task_assessment_resources_download.ts';
import { uploadTaskAssessmentResources } from './task_assessment_resources_upload.ts';
import { deleteTaskResources } from './task_resources_delete.ts';
import { downloadTaskResources } from './task_resources_download.ts';
import { uploadTaskResources } from './task_resources_upload.ts';
import { uploadTaskPdfs } from './task_pdfs.ts';
import { definitionTasks } from './tasks.ts';
import { deleteSimcheckGroupAttachment } from './simcheck_group_attachments_delete.ts';
import { listSimcheckGroupAttachments } from './simcheck_group_attachments_list.ts';
import { updateSimcheckGroupAttachment } from './simcheck_group_attachments_update.ts';
import { updateTaskDefinitionProcedure } from './update.ts';
import { testOverseerAssessment } from './test_overseer_assessment.ts';

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
  taskResourcesUpload: uploadTaskResources,
  taskResources: downloadTaskResources,
  taskResourcesDelete: deleteTaskResources,
  taskAssessmentResourcesUpload: uploadTaskAssessmentResources,
  taskAssessmentResources: downloadTaskAssessmentResources,
  taskAssessmentResourcesDelete: deleteTaskAssessmentResources,
  taskPdfs: uploadTaskPdfs,
  simcheckGroupAttachments: listSimcheckGroupAttachments,
  simcheckGroupAttachmentUpdate: updateSimcheckGroupAttachment,
  simcheckGroupAttachmentDelete: deleteSimcheckGroupAttachment,
  testOverseerAssessment,
});
