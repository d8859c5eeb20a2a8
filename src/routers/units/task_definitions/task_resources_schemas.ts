import { z } from 'zod';
import { idField } from '../../../trpc/fields.ts';
import { uploadedFile } from '../../../trpc/files.ts';

/** .../{task_def_id}/task_resources and .../task_assessment_resources: GET and DELETE. */
export const definitionZipInput = z.object({ unit_id: idField(), task_def_id: idField() });

/** POST of either: multipart field `file`, a zip. */
export const definitionZipUploadInput = z.object({ unit_id: idField(), task_def_id: idField(), file: uploadedFile() });
