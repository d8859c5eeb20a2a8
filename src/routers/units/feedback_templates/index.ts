import { router } from '../../../trpc/core.ts';
import { createTemplateProcedure } from './create.ts';
import { deleteTemplateProcedure } from './delete.ts';
import { downloadTemplatesCsv } from './download-csv.ts';
import { updateTemplateProcedure } from './update.ts';
import { uploadTemplatesCsv } from './upload-csv.ts';

/** /api/units/{unit_id}/feedback_templates */
export const feedbackTemplatesRouter = router({
  create: createTemplateProcedure,
  update: updateTemplateProcedure,
  delete: deleteTemplateProcedure,
  downloadCsv: downloadTemplatesCsv,
  uploadCsv: uploadTemplatesCsv,
});
