import { router } from '../../../trpc/core.ts';
import { classDetailsProcedure, classStatsProcedure } from './class-stats.ts';
import { createAlignmentProcedure } from './create.ts';
import { deleteAlignmentProcedure } from './delete.ts';
import { downloadAlignmentsCsv } from './download-csv.ts';
import { listAlignments } from './list.ts';
import { updateAlignmentProcedure } from './update.ts';
import { uploadAlignmentsCsv } from './upload-csv.ts';

/** /api/units/{unit_id}/learning_alignments */
export const learningAlignmentsRouter = router({
  list: listAlignments,
  create: createAlignmentProcedure,
  update: updateAlignmentProcedure,
  delete: deleteAlignmentProcedure,
  downloadCsv: downloadAlignmentsCsv,
  uploadCsv: uploadAlignmentsCsv,
  classStats: classStatsProcedure,
  classDetails: classDetailsProcedure,
});
