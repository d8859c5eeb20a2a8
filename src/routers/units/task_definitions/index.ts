import { router } from '../../../trpc/core.ts';
import { downloadTaskDefinitionsCsv } from '../../csv/task_definitions/download.ts';
import { uploadTaskDefinitionsCsv } from '../../csv/task_definitions/upload.ts';
import { createTaskDefinitionProcedure } from './create.ts';
import { deleteTaskDefinitionProcedure } from './delete.ts';
import { deleteSimcheckGroupAttachment } from './simcheck_group_attachments/delete.ts';
import { listSimcheckGroupAttachments } from './simcheck_group_attachments/list.ts';
import { updateSimcheckGroupAttachment } from './simcheck_group_attachments/update.ts';
import { deleteTaskAssessmentResources } from './task_assessment_resources/delete.ts';
import { downloadTaskAssessmentResources } from './task_assessment_resources/download.ts';
import { uploadTaskAssessmentResources } from './task_assessment_resources/upload.ts';
import { downloadTaskPdf } from './task_pdf/download.ts';
import { uploadTaskPdfs } from './task_pdfs/upload.ts';
import { deleteTaskResources } from './task_resources/delete.ts';
import { downloadTaskResources } from './task_resources/download.ts';
import { uploadTaskResources } from './task_resources/upload.ts';
import { deleteTaskSheet } from './task_sheet/delete.ts';
import { uploadTaskSheet } from './task_sheet/upload.ts';
import { definitionTasks } from './tasks/list.ts';
import { deleteScormData } from './scorm_data/delete.ts';
import { downloadScormData } from './scorm_data/download.ts';
import { uploadScormData } from './scorm_data/upload.ts';
import { testOverseerAssessment } from './test_overseer_assessment/try-assessment.ts';
import { updateTaskDefinitionProcedure } from './update.ts';
import { deleteRubricProcedure } from './rubric/delete.ts';
import { getRubric } from './rubric/get.ts';
import { updateRubricLevel } from './rubric/levels/update.ts';
import { saveRubricProcedure } from './rubric/update.ts';
import { rubricMarksCsvDownload } from './rubric_marks/csv.ts';
import { overseerStepsRouter } from './overseer_steps/index.ts';
import { prerequisitesRouter } from './prerequisites/index.ts';

/**
 * /api/units/{unit_id}/task_definitions, and /api/csv/task_definitions (served from
 * src/routers/csv/task_definitions/, kept under this router's keys for the /trpc paths).
 */
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
  scormDataUpload: uploadScormData,
  scormData: downloadScormData,
  scormDataDelete: deleteScormData,
  simcheckGroupAttachments: listSimcheckGroupAttachments,
  simcheckGroupAttachmentUpdate: updateSimcheckGroupAttachment,
  simcheckGroupAttachmentDelete: deleteSimcheckGroupAttachment,
  testOverseerAssessment,
  // .../rubric, .../rubric/levels/{level_id} and .../rubric_marks/csv
  rubric: router({
    get: getRubric,
    save: saveRubricProcedure,
    updateLevel: updateRubricLevel,
    delete: deleteRubricProcedure,
    marksCsv: rubricMarksCsvDownload,
  }),
  // .../overseer_steps and .../overseer_steps/{id}
  overseerSteps: overseerStepsRouter,
  // .../prerequisites and .../prerequisites/{id}
  prerequisites: prerequisitesRouter,
});
