import { z } from 'zod';
import { formBool, idField } from '../../../../trpc/fields.ts';
import { projectTaskIds as ids } from '../schemas.ts';

// The newer web client sends the whole comment as it holds it; only `granted` is read.
export const assessScormExtensionInput = z.object({
  ...ids,
  task_comment_id: idField(),
  granted: formBool().describe('True adds one more block of the attempt limit to the task, false refuses the request'),
});
