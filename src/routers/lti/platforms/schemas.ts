import { z } from 'zod';
import { idField, requiredString } from '../../../trpc/fields.ts';

// The output shape is written beside the operations that produce it.
export { platformOut } from '../../../operations/lti/platforms.ts';
import { isPlatformUrl, PLATFORM_URL_RULE } from '../../../operations/lti/platforms.ts';

const urlField = () => requiredString().pipe(z.string().max(2048).refine(isPlatformUrl, { message: PLATFORM_URL_RULE }));
// The issuer is an https URL too (LTI 1.3 / OIDC), compared as written.
const fields = {
  name: requiredString().pipe(z.string().max(255)),
  issuer: urlField().pipe(z.string().max(1024)),
  client_id: requiredString().pipe(z.string().max(255)),
  auth_login_url: urlField(),
  auth_token_url: urlField(),
  jwks_url: urlField(),
  deployment_ids: z.array(requiredString().pipe(z.string().max(255))).min(1, { message: 'needs at least one deployment id' }),
};

export const platformIdInput = z.object({ id: idField() });
export const createPlatformInput = z.object(fields);
export const updatePlatformInput = z.object({ id: idField() }).extend(z.object(fields).partial().shape);
