import { z } from 'zod';
import { formBool, idField } from '../../../../trpc/fields.ts';
import { projectTaskIds as ids } from '../schemas.ts';

export const assessExtensionInput = z.object({
  ...ids,
  task_comment_id: idField(),
  granted: formBool().describe('True grants the weeks asked for (up to the deadline), false rejects the request'),
});
