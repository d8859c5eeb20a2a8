import { z } from 'zod';
import { idField } from '../../../../trpc/fields.ts';
import { uploadedFile } from '../../../../lib/files.ts';

export const taskPdfsInput = z.object({ unit_id: idField(), file: uploadedFile() });

const entryResult = z.object({ row: z.string(), message: z.string() });
export const taskPdfsOut = z.object({ success: z.array(entryResult), errors: z.array(entryResult), ignored: z.array(entryResult) });
