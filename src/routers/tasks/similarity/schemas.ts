import { z } from 'zod';
import { formBool, idField } from '../../../trpc/fields.ts';
import { similarityOut } from '../similarities/schemas.ts';

export const matchInput = z.object({
  id: idField().describe('The task'),
  match: z.coerce.number().int().min(0).describe("Which of the task's similarities, from 0 in the order they are listed"),
});
export const dismissMatchInput = matchInput.extend({ dismissed: formBool(), other: formBool().default(false) });
export const legacyOut = similarityOut.extend({ dismissed: z.boolean().describe('not flagged') });
