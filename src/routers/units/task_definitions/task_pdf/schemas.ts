import { z } from 'zod';
import { formBool, idField } from '../../../../trpc/fields.ts';

export const taskPdfInput = z.object({
  unit_id: idField(),
  task_def_id: idField(),
  as_attachment: formBool().optional().default(false),
});
