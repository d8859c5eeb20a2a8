import { z } from 'zod';
import { idField } from '../../../trpc/fields.ts';
import { uploadedFile } from '../../../lib/files.ts';

/** GET /api/csv/task_definitions?unit_id=N */
export const taskDefinitionsCsvInput = z.object({ unit_id: idField() });

/** POST /api/csv/task_definitions: multipart `file` and `unit_id`. */
export const taskDefinitionsCsvUploadInput = z.object({ unit_id: idField(), file: uploadedFile() });
