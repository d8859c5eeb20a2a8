import { z } from 'zod';
import { idField } from '../../trpc/fields.ts';

/** GET /api/scorm/{task_def_id}/{username}/{scorm_token}/{file_path}: file_path is the rest of the path, slashes included. */
export const scormAssetInput = z.object({
  task_def_id: idField(),
  username: z.string().max(255),
  scorm_token: z.string().max(255),
  file_path: z.string().max(2048),
});
