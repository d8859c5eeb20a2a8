import { z } from 'zod';
import { formBool, formString } from '../../trpc/fields.ts';
import { userOut } from '../users/schemas.ts';

export const signInInput = z.object({
  // No length bound: a username no account has, however long, is an ordinary failed sign-in (401),
  // and the throttle keeps its keys short itself.
  username: formString().pipe(z.string().min(1, { message: 'is empty' })),
  // Either a password, or (single sign-on return) a token the caller already holds.
  password: z.string().optional(),
  auth_token: z.string().optional(),
  remember: formBool().optional().default(false),
});

export const signInOut = z.object({ user: userOut, auth_token: z.string() });

export const renewInput = z.object({
  username: formString().pipe(z.string().min(1, { message: 'is empty' })),
  remember: formBool().optional().default(false),
});

export const samlSignInInput = z.object({
  SAMLResponse: formString().pipe(z.string().min(1, { message: 'is missing' })),
});

export const samlSignInOut = z.object({
  token: z.string(),
  user: z.object({ email: z.string(), name: z.string() }),
});
