import type { Config } from '../../config.ts';
import { badRequest, notConfigured } from '../../lib/errors.ts';

export const LTI_NOT_CONFIGURED = 'LTI is not configured';

/** LTI_KEY_SECRET, or 503: without it the tool can neither sign nor read its keys, so no LTI route works. */
export function ltiSecret(config: Pick<Config, 'lti'>): string {
  const secret = config.lti.keySecret;
  if (!secret) throw notConfigured(LTI_NOT_CONFIGURED);
  return secret;
}

export const TOOL_URL_NOT_SET =
  'LTI Dynamic Registration needs LTI_TOOL_URL, the public URL LMSs reach this service at. Ask the operator to set it, ' +
  'or register the platform with POST /api/lti/platforms instead';

/**
 * LTI_TOOL_URL (no trailing slash): the tool cannot tell a platform its own URLs without it. Unset is
 * 400, not 503 like a missing LTI_KEY_SECRET: the rest of LTI works without it, and the page tells
 * the Admin the way that does (registering the platform by hand).
 */
export function ltiToolUrl(config: Pick<Config, 'lti'>): string {
  ltiSecret(config);
  const url = config.lti.toolUrl;
  if (!url) throw badRequest(TOOL_URL_NOT_SET);
  return url;
}
