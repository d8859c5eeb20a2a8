import { router } from '../../../../../trpc/core.ts';
import { downloadGroupsCsv } from './download.ts';
import { uploadGroupsCsv } from './upload.ts';

/** .../groups/csv (GET download, POST upload). */
export const groupsCsvRouter = router({ download: downloadGroupsCsv, upload: uploadGroupsCsv });
