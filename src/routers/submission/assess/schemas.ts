import { z } from 'zod';
import { idField } from '../../../trpc/fields.ts';
import { uploadedFile } from '../../../lib/files.ts';

export const assessDownloadInput = z.object({
  unit_id: idField(),
  user_id: idField().optional().describe("Whose tutorials (default: the caller's); another tutor's only for the unit's convenors"),
});

export const assessUploadInput = assessDownloadInput.extend({
  file: uploadedFile().describe('marks.csv, or the zip with marks.csv and PDFs named *-<task id>.pdf'),
});

export { assessUploadOut, type AssessUploadOut } from '../../../operations/submission/assess/marks-report.ts';
