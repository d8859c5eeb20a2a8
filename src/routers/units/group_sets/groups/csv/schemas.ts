import { z } from 'zod';
import { idField } from '../../../../../trpc/fields.ts';
import { uploadedFile } from '../../../../../lib/files.ts';

export const groupSetCsvInput = z.object({ unit_id: idField(), group_set_id: idField() });
export const groupSetCsvUploadInput = groupSetCsvInput.extend({ file: uploadedFile() });

const rowResult = z.object({ row: z.record(z.string(), z.string()), message: z.string() });
export const csvUploadOut = z.object({ result: z.string(), success: z.array(rowResult), errors: z.array(rowResult), ignored: z.array(rowResult) });
