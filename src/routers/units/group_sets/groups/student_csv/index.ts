import { router } from '../../../../../trpc/core.ts';
import { downloadStudentGroupsCsv } from './download.ts';
import { uploadStudentGroupsCsv } from './upload.ts';

/** .../groups/student_csv (GET download, POST upload). */
export const studentGroupsCsvRouter = router({ download: downloadStudentGroupsCsv, upload: uploadStudentGroupsCsv });
