import { z } from 'zod';
import { SYSTEM_ROLES } from '../../../schema/enums.ts';
import { formBool, formString, idField, requiredString } from '../../trpc/fields.ts';

export const userOut = z.object({
  id: z.number().int(),
  student_id: z.string().nullable(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  username: z.string(),
  nickname: z.string().nullable(),
  pronouns: z.string().nullable(),
  receive_task_notifications: z.boolean(),
  receive_portfolio_notifications: z.boolean(),
  receive_feedback_notifications: z.boolean(),
  opt_in_to_research: z.boolean().nullable(),
  has_run_first_time_setup: z.boolean(),
  accepted_tii_eula: z.boolean(),
  system_role: z.enum(SYSTEM_ROLES),
});
// ---- Inputs ----------------------------------------------------------------------------------

const MAX_TEXT = 255;

/** A non-blank name that fits its column. */
const nameField = () => requiredString().pipe(z.string().max(MAX_TEXT, { message: 'is too long (maximum is 255 characters)' }));

/** Optional text where blank (or JSON null) clears the value to null. */
const clearableText = () =>
  z
    .preprocess((v) => (v === null ? '' : v), formString())
    .pipe(z.string().max(MAX_TEXT, { message: 'is too long (maximum is 255 characters)' }))
    .transform((s) => (s === '' ? null : s));

// The original's validation (reference §3.4); checked after lower-casing.
const EMAIL = /^[^@\s]+@([-a-z0-9]+\.)+[a-z]{2,}$/;

/** Stored lower-cased, so uniqueness is case-insensitive. */
const emailField = () =>
  nameField()
    .transform((s) => s.toLowerCase())
    .pipe(z.string().regex(EMAIL, { message: 'is invalid' }));

const usernameField = () => nameField().transform((s) => s.toLowerCase());

/** Not trimmed: spaces are part of a password. */
const passwordField = () =>
  z.string().min(8, { message: 'is too short (minimum is 8 characters)' }).max(MAX_TEXT, { message: 'is too long (maximum is 255 characters)' });

/** A role name, matched case-insensitively by the procedure (an unknown name is a 403 there, as in the original). */
const roleName = () => formString();

export const userIdInput = z.object({ id: idField() });

/** The web client's flat camelCase names for the fields of `user[...]`. */
const CLIENT_NAMES: Record<string, string> = {
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  username: 'username',
  nickname: 'nickname',
  systemRole: 'system_role',
  password: 'password',
  studentId: 'student_id',
  pronouns: 'pronouns',
  optInToResearch: 'opt_in_to_research',
  hasRunFirstTimeSetup: 'has_run_first_time_setup',
};

/**
 * The web client's "Add New User" dialog sends the user flat and in camelCase
 * (`{"firstName": …, "systemRole": …}`); the spec's form wraps it as `user[first_name]`.
 * A body without `user` that carries the client's names is read as the wrapped form.
 */
export function wrapClientUser(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body) || 'user' in body) return body;
  const fields = Object.entries(body as Record<string, unknown>).filter(([key]) => key in CLIENT_NAMES);
  if (fields.length === 0) return body;
  return { ...body, user: Object.fromEntries(fields.map(([key, value]) => [CLIENT_NAMES[key], value])) };
}

export const createUserInput = z.object({
  user: z.object({
    first_name: nameField(),
    last_name: nameField(),
    email: emailField(),
    // Required; the web client's flat body gets one made from the email before it is parsed (create.ts).
    username: usernameField(),
    nickname: nameField(),
    system_role: roleName(),
    // Without one the user cannot sign in with a password until one is set through PUT.
    password: passwordField().optional(),
    student_id: clearableText().optional(),
    pronouns: clearableText().optional(),
    opt_in_to_research: formBool().nullable().optional(),
    has_run_first_time_setup: formBool().optional(),
  }),
});
export type CreateUserInput = z.infer<typeof createUserInput>;

// The web client sends only the changed fields (and also `username` and `accepted_tii_eula`,
// which are not editable here and are dropped), so every field is optional.
export const updateUserInput = z.object({
  id: idField(),
  user: z
    .object({
      first_name: nameField().optional(),
      last_name: nameField().optional(),
      email: emailField().optional(),
      student_id: clearableText().optional(),
      nickname: clearableText().optional(),
      pronouns: clearableText().optional(),
      system_role: roleName().optional(),
      // null means "back to the default" (on), as the original intends.
      receive_task_notifications: formBool().nullable().optional(),
      receive_portfolio_notifications: formBool().nullable().optional(),
      receive_feedback_notifications: formBool().nullable().optional(),
      opt_in_to_research: formBool().nullable().optional(),
      has_run_first_time_setup: formBool().optional(),
      password: passwordField().optional(),
    })
    .default({}),
});
export type UpdateUserInput = z.infer<typeof updateUserInput>;
