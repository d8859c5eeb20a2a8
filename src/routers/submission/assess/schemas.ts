import { z } from 'zod';
import { idField } from '../../../trpc/fields.ts';
import { uploadedFile } from '../../../trpc/files.ts';

export const assessDownloadInput = z.object({
  unit_id: idField(),
  user_id: idField().optional().describe("Whose tutorials (default: the caller's); another tutor's only for the unit's convenors"),
});

export const assessUploadInput = assessDownloadInput.extend({
  file: uploadedFile().describe('marks.csv, or the zip with marks.csv and PDFs named *-<task id>.pdf'),
});

/** A row of marks.csv (its cells by lower-cased header) or, for a PDF, `{file: <entry name>}`. */
const reported = z.object({ row: z.record(z.string(), z.string()), message: z.string() });

export const assessUploadOut = z.object({
  message: z.string().describe('What was done, in a sentence'),
  success: z.array(reported),
  ignored: z.array(reported),
  errors: z.array(reported),
});
export type AssessUploadOut = z.infer<typeof assessUploadOut>;
