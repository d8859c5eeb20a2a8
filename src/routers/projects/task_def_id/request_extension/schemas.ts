import { z } from 'zod';
import { formInt, formString } from '../../../../trpc/fields.ts';
import { projectTaskIds as ids } from '../schemas.ts';

export const requestExtensionInput = z.object({
  ...ids,
  comment: formString().pipe(z.string().max(4095)).describe("The reason for the request, shown to the student's tutor"),
  weeks_requested: formInt().describe('Weeks asked for; more than can still be granted is reduced to what can'),
});
