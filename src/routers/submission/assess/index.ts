import { router } from '../../../trpc/core.ts';
import { downloadMarkingPackage } from './download.ts';
import { uploadMarks } from './upload.ts';

// /api/submission/assess: offline marking, out as a zip and back as marks.csv (or the zip).
export const assessRouter = router({
  download: downloadMarkingPackage,
  upload: uploadMarks,
});
