import { z } from 'zod';
import { formString } from '../../../../trpc/fields.ts';
import { projectTaskIds as ids } from '../schemas.ts';

export const requestScormExtensionInput = z.object({
  ...ids,
  comment: formString().pipe(z.string().max(4095)).describe("The reason for the request, shown to the unit's main convenor"),
});
