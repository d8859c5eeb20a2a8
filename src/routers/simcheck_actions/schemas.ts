import { z } from 'zod';
import { formBool, formInt, idField } from '../../trpc/fields.ts';

// The output shape is written beside the operations that produce it.
export { actionOut } from '../../operations/simcheck_actions/action-log.ts';

export const actionsListInput = z.object({
  unit_id: idField().optional(),
  limit: formInt().pipe(z.number().int().min(0).max(1000)).default(50),
  offset: formInt().pipe(z.number().int().min(0)).default(0),
  show_complete: formBool().default(false),
});

export const actionRetryInput = z.object({
  id: idField(),
  action: z.string().trim().min(1),
  unit_id: idField().optional(),
});
