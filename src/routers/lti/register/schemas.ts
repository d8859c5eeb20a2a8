import { z } from 'zod';
import { requiredString } from '../../../trpc/fields.ts';

const text = (max: number) => requiredString().pipe(z.string().max(max));

/** What the LMS sends when it opens the tool's registration URL (LTI Dynamic Registration 1.0). */
export const registrationStartInput = z.object({
  openid_configuration: text(2048),
  registration_token: text(8192).optional(),
});

/** The confirmation form: the same, and the Admin's credentials. */
export const registrationConfirmInput = registrationStartInput.extend({
  username: text(255),
  password: requiredString().pipe(z.string().max(1024)),
});

export const htmlOut = z.string();
