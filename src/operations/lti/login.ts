// OIDC third-party login initiation (LTI 1.3 §5.1.1): the platform sends the browser here with `iss`,
// `login_hint` and `target_link_uri`; the tool answers with a redirect to the platform's
// authorisation endpoint carrying a fresh single-use `state` and `nonce`, which the launch
// (POST /api/lti/launch) must bring back. Both live in lti_login_states until used or expired.
import { randomBytes } from 'node:crypto';
import { LtiLoginState, LtiPlatform } from '../../../schema/index.ts';
import type { Config } from '../../config.ts';
import type { Em } from '../../db/orm.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest } from '../../lib/errors.ts';
import { ltiSecret } from './configured.ts';

/** How long a login may take between this redirect and the launch that completes it. */
export const LOGIN_STATE_TTL_MS = 10 * 60 * 1000;
/** Where the platform posts the id_token (the tool's launch URL): under LTI_TOOL_URL, else on the origin of `target_link_uri`. */
export const LAUNCH_PATH = '/api/lti/launch';

/** The tool's launch URL (the OIDC `redirect_uri`): LTI_TOOL_URL's when set, so a tool under a path prefix works too. */
export function launchUrl(config: Pick<Config, 'lti'>, targetLinkUri: string): string {
  const base = config.lti.toolUrl;
  return base ? `${base}${LAUNCH_PATH}` : new URL(LAUNCH_PATH, targetLinkUri).toString();
}

export interface LoginInput {
  iss: string;
  login_hint: string;
  target_link_uri: string;
  client_id?: string;
  lti_message_hint?: string;
  lti_deployment_id?: string;
}

const token = () => randomBytes(32).toString('base64url');

export async function startLogin(em: Em, config: Pick<Config, 'lti'>, clock: Clock, input: LoginInput): Promise<{ location: string }> {
  ltiSecret(config);
  const platforms = await em.find(LtiPlatform, { issuer: input.iss, ...(input.client_id !== undefined && { clientId: input.client_id }) });
  if (platforms.length === 0)
    throw badRequest(`No LTI platform is registered for issuer ${input.iss}${input.client_id ? ` and client_id ${input.client_id}` : ''}`);
  // Without client_id (optional in the spec) the issuer alone must name one registration.
  if (platforms.length > 1) throw badRequest(`Several LTI platforms are registered for issuer ${input.iss}: the login must name its client_id`);
  const [platform] = platforms;
  if (input.lti_deployment_id !== undefined && !platform.deploymentIds.includes(input.lti_deployment_id)) {
    throw badRequest(`Unknown LTI deployment ${input.lti_deployment_id} for this platform`);
  }
  const now = clock.now();
  // Logins never completed are dropped here, so the table holds only logins in flight.
  await em.nativeDelete(LtiLoginState, { expiresAt: { $lt: now } });
  const state = token();
  const nonce = token();
  em.create(LtiLoginState, { state, nonce, platform, expiresAt: new Date(now.getTime() + LOGIN_STATE_TTL_MS) });
  await em.flush();

  const location = new URL(platform.authLoginUrl);
  const params: Record<string, string | undefined> = {
    scope: 'openid',
    response_type: 'id_token',
    response_mode: 'form_post',
    prompt: 'none',
    client_id: platform.clientId,
    redirect_uri: launchUrl(config, input.target_link_uri),
    login_hint: input.login_hint,
    lti_message_hint: input.lti_message_hint,
    state,
    nonce,
  };
  for (const [name, value] of Object.entries(params)) if (value !== undefined) location.searchParams.set(name, value);
  return { location: location.toString() };
}
