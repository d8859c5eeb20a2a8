import type { Config } from '../../config.ts';
import { notConfigured } from '../../trpc/errors.ts';

export const LTI_NOT_CONFIGURED = 'LTI is not configured';

/** LTI_KEY_SECRET, or 503: without it the tool can neither sign nor read its keys, so no LTI route works. */
export function ltiSecret(config: Pick<Config, 'lti'>): string {
  const secret = config.lti.keySecret;
  if (!secret) throw notConfigured(LTI_NOT_CONFIGURED);
  return secret;
}
