import { z } from 'zod';
import { idField, preprocess } from '../../trpc/fields.ts';

/** A public key as RFC 7517 has it; what a platform fetches from the tool's JWKS. */
export const publicJwkOut = z.object({
  kty: z.string(),
  kid: z.string(),
  alg: z.literal('RS256'),
  use: z.literal('sig'),
  n: z.string(),
  e: z.string(),
});

export const jwksOut = z.object({ keys: z.array(publicJwkOut) });

export const rotatedOut = z.object({ kid: z.string(), retired_kid: z.string().nullable() });

const param = () => z.string().trim().min(1, { message: 'is empty' }).max(4096);
const absoluteHttpUrl = () =>
  param().refine(
    (v) => {
      try {
        return ['https:', 'http:'].includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: 'must be an absolute URL' },
  );

/** What a platform sends to start a login (query or form). */
export const loginInput = z.object({
  iss: param(),
  login_hint: param(),
  target_link_uri: absoluteHttpUrl(),
  client_id: param().optional(),
  lti_message_hint: param().optional(),
  lti_deployment_id: param().optional(),
});

export const loginOut = z.object({ location: z.string() });

/** The platform's form post that completes a launch (OIDC authentication response, form_post). */
export const launchInput = z.object({
  id_token: z.string().trim().min(1, { message: 'is empty' }).max(65536),
  state: param(),
});

/** The Instructor's choice of the unit an unlinked course is linked to. */
export const launchLinkInput = z.object({
  ticket: param(),
  unit: z
    .string()
    .trim()
    .regex(/^(new|\d{1,9})$/, { message: 'must be a unit id or "new"' }),
});

/** A page (to choose a unit or tasks) or where the browser goes next (the web client's sign-in). */
export const launchOut = z.union([z.string(), z.object({ location: z.string() })]);

/** A form's list: `ids[]=1&ids[]=2` (qs gives an array, or an object past its array limit) or a single `ids=1`. */
const formList = (v: unknown) =>
  v === undefined || v === '' ? undefined : Array.isArray(v) ? v : v !== null && typeof v === 'object' ? Object.values(v) : [v];

/** The Instructor's choice on the deep-linking page. */
export const deepLinkInput = z.object({
  ticket: param().pipe(z.string().max(64)),
  task_definition_ids: preprocess(formList, z.array(idField()).max(200)).optional(),
});

export const htmlOut = z.string();
