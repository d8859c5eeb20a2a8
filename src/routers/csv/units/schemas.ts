import { z } from 'zod';
import { idField } from '../../../trpc/fields.ts';
import { uploadedFile } from '../../../trpc/files.ts';

export const unitCsvUploadInput = z.object({ id: idField(), file: uploadedFile() });
export const unitCsvInput = z.object({ id: idField() });

const rowResult = z.object({ row: z.record(z.string(), z.string()), message: z.string() });
export const importResultOut = z.object({ success: z.array(rowResult), errors: z.array(rowResult), ignored: z.array(rowResult) });
