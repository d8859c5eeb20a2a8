import { router } from '../../../trpc/core.ts';
import { createOutcomeProcedure } from './create.ts';
import { deleteOutcomeProcedure } from './delete.ts';
import { downloadOutcomesCsv } from './download-csv.ts';
import { updateOutcomeProcedure } from './update.ts';
import { uploadOutcomesCsv } from './upload-csv.ts';

/** /api/units/{unit_id}/outcomes */
export const outcomesRouter = router({
  create: createOutcomeProcedure,
  update: updateOutcomeProcedure,
  delete: deleteOutcomeProcedure,
  downloadCsv: downloadOutcomesCsv,
  uploadCsv: uploadOutcomesCsv,
});
