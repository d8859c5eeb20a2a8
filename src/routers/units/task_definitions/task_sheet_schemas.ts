import { z } from 'zod';
import { formBool, idField } from '../../../trpc/fields.ts';
import { uploadedFile } from '../../../trpc/files.ts';

export const taskSheetUploadInput = z.object({ unit_id: idField(), task_def_id: idField(), file: uploadedFile() });

export const taskSheetInput = z.object({ unit_id: idField(), task_def_id: idField() });

export const taskPdfInput = z.object({
  unit_id: idField(),
  task_def_id: idField(),
  as_attachment: formBool().optional().default(false),
});
